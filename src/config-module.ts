import { pathToFileURL } from "node:url";
import { errorMessage, InputError, UserError } from "./core/errors.js";

// Config files written as modules (longhaul.config.ts/.mts/.js/.mjs) export their settings as
// `config` or as the default export. JavaScript loads as is; TypeScript loads natively on a Node
// that strips types, else through tsx when it is installed (an optional peer dependency: most
// users write JSON or TOML and should not pay for a TypeScript loader).

/** File endings loaded as modules. */
export const MODULE_CONFIG_ENDINGS = [".ts", ".mts", ".js", ".mjs"] as const;

export function isModuleConfig(path: string): boolean {
  return MODULE_CONFIG_ENDINGS.some((e) => path.endsWith(e));
}

const isTypeScript = (path: string): boolean => path.endsWith(".ts") || path.endsWith(".mts");

/** Evaluates a module config file and returns what it exports as its configuration (unchecked). */
export async function importConfigModule(path: string): Promise<unknown> {
  const url = pathToFileURL(path).href;
  let mod: Record<string, unknown>;
  try {
    mod = isTypeScript(path) && !nodeStripsTypes() ? await importWithTsx(path, url) : await import(url);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new InputError(path, lineOf(e), undefined, `could not be loaded: ${firstLine(errorMessage(e))}`);
  }
  const value = exported(mod);
  if (value === undefined) {
    throw new InputError(
      path,
      undefined,
      undefined,
      "exports no configuration (export `config` or a default export)",
    );
  }
  return value;
}

/**
 * `config`, else the default export. A file compiled as CommonJS (no "type": "module" above it)
 * arrives wrapped once more: its module.exports is the default, holding `config` or `default`.
 */
function exported(mod: Record<string, unknown>): unknown {
  let value: unknown = mod.config ?? mod.default;
  for (let depth = 0; depth < 2; depth++) {
    if (typeof value !== "object" || value === null) break;
    const inner = value as Record<string, unknown>;
    const keys = Object.keys(inner).filter((k) => k !== "__esModule");
    if (!("__esModule" in inner) && !keys.every((k) => k === "config" || k === "default")) break;
    if (keys.length === 0) break;
    value = inner.config ?? inner.default;
  }
  return value;
}

function nodeStripsTypes(): boolean {
  const features = process.features as { typescript?: unknown };
  return typeof features.typescript === "string" && features.typescript !== "";
}

async function importWithTsx(path: string, url: string): Promise<Record<string, unknown>> {
  let api: { tsImport: (specifier: string, parent: string) => Promise<Record<string, unknown>> };
  try {
    api = await import("tsx/esm/api");
  } catch {
    throw new UserError(
      `${path}: a TypeScript config file needs tsx (npm install --save-dev tsx) or Node 22.6+; or write longhaul.config.json or .toml`,
    );
  }
  return api.tsImport(url, import.meta.url);
}

/** The line of the config file named in a loader's error, when it gives one. */
function lineOf(e: unknown): number | undefined {
  const m = /:(\d+):\d+/.exec(errorMessage(e));
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

const firstLine = (s: string): string => s.split("\n")[0] ?? s;
