import { createRequire } from "node:module";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UserError } from "./core/errors.js";
import * as registries from "./registries.js";

/** What a plugin's `register` is given: the registries of the public API, one shape for each kind. */
export type PluginApi = typeof registries;

/** A plugin module: an ES module that exports `register(api)` (it may be async). */
export interface LonghaulPlugin {
  register(api: PluginApi): void | Promise<void>;
}

/** A plugin to load: a path (relative to `baseDir`) or an installed package's name. */
export interface PluginSpec {
  spec: string;
  baseDir: string;
}

/** Whether a plugin names a file rather than a package (`./x.mjs`, `/abs/x.js`, `x.mjs`). */
function isPath(spec: string): boolean {
  return spec.startsWith(".") || isAbsolute(spec) || /\.(?:m?js|cjs)$/.test(spec);
}

/** The URL to import: a file next to the config, or a package found from the config's folder. */
function pluginUrl(p: PluginSpec): string {
  if (isPath(p.spec)) return pathToFileURL(resolve(p.baseDir, p.spec)).href;
  try {
    // A package installed next to the config file (not necessarily next to longhaul).
    return pathToFileURL(createRequire(join(p.baseDir, "noop.js")).resolve(p.spec)).href;
  } catch {
    // An ESM-only package has no "require" entry: let import() resolve it from longhaul's side.
    return p.spec;
  }
}

/** Imports each plugin in order and calls its `register`; a failure is a UserError naming the plugin. */
export async function loadPlugins(plugins: readonly PluginSpec[]): Promise<void> {
  for (const p of plugins) {
    let mod: unknown;
    try {
      mod = await import(pluginUrl(p));
    } catch (e) {
      throw new UserError(`plugin ${p.spec}: cannot be loaded: ${(e as Error).message.split("\n")[0]}`, {
        cause: e,
      });
    }
    const register = typeof mod === "object" && mod !== null ? Reflect.get(mod, "register") : undefined;
    if (typeof register !== "function") {
      throw new UserError(`plugin ${p.spec}: exports no register(api) function`);
    }
    try {
      await (register as LonghaulPlugin["register"])(registries);
    } catch (e) {
      if (e instanceof UserError) throw new UserError(`plugin ${p.spec}: ${e.message}`, { cause: e });
      throw new UserError(`plugin ${p.spec}: register failed: ${(e as Error).message}`, { cause: e });
    }
  }
}
