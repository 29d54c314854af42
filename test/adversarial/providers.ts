import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import { getSandboxProvider, listSandboxProviders } from "../../src/sandbox/registry.js";
import type { SandboxProvider } from "../../src/sandbox/types.js";

export interface ProviderConfig {
  /** Label in test names; also how the trial child process finds the provider again. */
  name: string;
  make: () => SandboxProvider;
  /**
   * A second configuration of a provider that differs from it only in how resources are limited:
   * attacks whose outcome cannot depend on the limits (`Attack.anyLimits`) are not run on it.
   */
  limitsVariant?: boolean;
}

/**
 * Every registered provider in its default configuration, plus bwrap with rlimits only (the
 * fallback taken on hosts without writable cgroups). A provider registered in
 * src/sandbox/registry.ts is picked up here with no change; a second configuration of one is one
 * more line in EXTRA.
 */
const EXTRA: ProviderConfig[] = [
  { name: "bwrap-rlimit", make: () => new BwrapProvider({ limits: "rlimit" }), limitsVariant: true },
];

/**
 * Registered providers `npm test` does not attack, with the reason (docs/security.md says the
 * same). docker: each attack is a container trial of several seconds, which the test budget
 * cannot hold for every attack; `LONGHAUL_ATTACK_DOCKER=1 npx vitest run test/adversarial` runs
 * the suite against it (the fixtures declare [requires] nested_sandbox, so their sealed graders
 * work in a container).
 */
export const NOT_YET_ATTACKED: Readonly<Record<string, string>> =
  process.env.LONGHAUL_ATTACK_DOCKER === "1"
    ? {}
    : { docker: "container trials are too slow for the test budget; run with LONGHAUL_ATTACK_DOCKER=1" };

export function providerConfigs(): ProviderConfig[] {
  const registered = listSandboxProviders()
    .filter((name) => NOT_YET_ATTACKED[name] === undefined)
    .map((name) => ({ name, make: () => getSandboxProvider(name) }));
  return [...registered, ...EXTRA];
}

/** A configuration of `providerConfigs`, or a registered provider left out of it (NOT_YET_ATTACKED). */
export function providerByName(name: string): SandboxProvider {
  const found = providerConfigs().find((p) => p.name === name);
  if (found !== undefined) return found.make();
  if (listSandboxProviders().includes(name)) return getSandboxProvider(name);
  throw new Error(`no provider configuration named ${name}`);
}
