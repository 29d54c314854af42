import { UserError } from "../core/errors.js";
import { BwrapProvider } from "./bwrap-provider.js";
import { DockerProvider } from "./docker/docker-provider.js";
import type { SandboxProvider } from "./types.js";

export const DEFAULT_SANDBOX_PROVIDER = "bwrap";

export type SandboxProviderFactory = () => SandboxProvider;

const factories = new Map<string, SandboxProviderFactory>([
  ["bwrap", () => new BwrapProvider()],
  ["docker", () => new DockerProvider()],
]);

const descriptions = new Map<string, string>([
  ["bwrap", "bubblewrap namespaces on this host (no daemon)"],
  ["docker", "a Docker container per sandbox"],
]);

/** Adds (or replaces) a provider under `name`, e.g. from a plugin or a test. */
export function registerSandboxProvider(
  name: string,
  factory: SandboxProviderFactory,
  description = "",
): void {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) {
    throw new UserError(
      `sandbox provider name ${JSON.stringify(name)} must be lowercase letters, digits and -`,
    );
  }
  factories.set(name, factory);
  descriptions.set(name, description);
}

/** The one-line description a provider was registered with ("" when none). */
export function sandboxProviderDescription(name: string): string {
  return descriptions.get(name) ?? "";
}

export function listSandboxProviders(): string[] {
  return [...factories.keys()].sort();
}

/** A fresh provider by name; an unknown name is a UserError that lists the known ones. */
export function getSandboxProvider(name: string = DEFAULT_SANDBOX_PROVIDER): SandboxProvider {
  const factory = factories.get(name);
  if (factory === undefined) {
    throw new UserError(`unknown sandbox provider "${name}" (known: ${listSandboxProviders().join(", ")})`);
  }
  return factory();
}
