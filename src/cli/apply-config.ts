import type { Command } from "commander";
import { configValueError, type EffectiveConfig, loadConfig } from "../config.js";
import { UserError } from "../core/errors.js";
import { setPricingOverrides } from "../models/pricing.js";
import { globalOpts } from "./global-options.js";

// Runs before every command's action (a preAction hook in run-cli.ts): reads the config file,
// loads the plugins, and fills the options the command line left at their defaults.
// The registries (every agent, sandbox and model SDK behind them) load only when this needs them:
// a config with agents or plugins, or a command that takes --sandbox (which loads them anyway);
// `report`, `export` and the like start without them.

let current: EffectiveConfig | null = null;

/** The configuration the running command started from (read by `config show`). */
export async function effectiveConfig(): Promise<EffectiveConfig> {
  if (current === null) current = await loadConfig({});
  return current;
}

/** Loads config and plugins for `action`, from the --config and --plugin given on its way down. */
export async function applyConfig(action: Command): Promise<void> {
  const globals = globalOpts(action);
  const config = await loadConfig({
    ...(globals.config === undefined ? {} : { config: globals.config }),
    plugins: globals.plugin ?? [],
  });
  current = config;
  const prices = Object.entries(config.pricingModels);
  if (prices.length > 0 && config.file !== null) {
    setPricingOverrides(Object.fromEntries(prices.map(([m, p]) => [m, p.value])), config.file.path);
  }
  // Config-file agents first, so a plugin may still replace one by name.
  const agents = Object.entries(config.agents);
  if (agents.length > 0) {
    const [{ defFromSpec }, { installedAgent }, { registerAgent }] = await Promise.all([
      import("../agents/installed/from-config.js"),
      import("../agents/installed/index.js"),
      import("../registries.js"),
    ]);
    for (const [name, spec] of agents) registerAgent(name, installedAgent(defFromSpec(name, spec.value)));
  }
  if (config.plugins.length > 0) await (await import("../plugins.js")).loadPlugins(config.plugins);
  fillDefault(action, "jobsDir", config.jobsDir.value);
  await checkSandbox(action, config);
  fillDefault(action, "sandbox", config.sandbox.value);
  // --model is repeatable, so it has no default of its own: the list applies when none is given.
  if (
    hasOption(action, "model") &&
    action.getOptionValue("model") === undefined &&
    config.models.value.length > 0
  ) {
    action.setOptionValueWithSource("model", [...config.models.value], "config");
  }
}

/**
 * A sandbox name from the config file or LONGHAUL_SANDBOX is checked here, where its origin is
 * known, so the error names the file and key (or the variable) rather than only the name.
 */
async function checkSandbox(action: Command, config: EffectiveConfig): Promise<void> {
  if (!hasOption(action, "sandbox") || action.getOptionValueSource("sandbox") !== "default") return;
  const { value, source } = config.sandbox;
  // The sandbox registry alone: the public facade (registries.js) would load every transform and
  // world module with it.
  const { listSandboxProviders } = await import("../sandbox/registry.js");
  const known = listSandboxProviders();
  if (known.includes(value)) return;
  const detail = `unknown sandbox provider "${value}" (known: ${known.join(", ")})`;
  if (typeof source !== "string") throw configValueError(source.file, ["sandbox"], detail);
  if (source === "environment") throw new UserError(`LONGHAUL_SANDBOX=${value}: ${detail}`);
}

function hasOption(cmd: Command, attribute: string): boolean {
  return cmd.options.some((o) => o.attributeName() === attribute);
}

/** Sets an option the command line did not give (its value still the built-in default). */
function fillDefault(cmd: Command, attribute: string, value: string): void {
  if (!hasOption(cmd, attribute)) return;
  if (cmd.getOptionValueSource(attribute) !== "default") return;
  cmd.setOptionValueWithSource(attribute, value, "config");
}
