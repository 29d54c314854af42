import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse as parseToml, TomlError } from "smol-toml";
import { z } from "zod";
import { installedAgentSpecSchema } from "./agents/installed/from-config.js";
import { importConfigModule, isModuleConfig } from "./config-module.js";
import { InputError, UserError } from "./core/errors.js";
import { parseUserJson, readUserText } from "./core/user-files.js";
import { priceEntrySchema } from "./models/pricing.js";

// The user's defaults for the command line: a longhaul.config.ts, .json or .toml file, found in the
// current folder or named by --config / LONGHAUL_CONFIG. A few values can also come from the
// environment. Command-line options always win; then environment, then the file, then defaults.

/** The file names looked for in the current folder, in this order. */
export const CONFIG_FILE_NAMES = [
  "longhaul.config.ts",
  "longhaul.config.mts",
  "longhaul.config.js",
  "longhaul.config.mjs",
  "longhaul.config.json",
  "longhaul.config.toml",
] as const;

/** What a config file may hold; every key is optional and unknown keys are refused. */
export const configFileSchema = z.strictObject({
  /** Where jobs are stored (default "jobs"), relative to the config file's folder. */
  jobsDir: z.string().min(1).optional(),
  /** The sandbox provider `run` uses (default "bwrap"). */
  sandbox: z.string().min(1).optional(),
  /** `provider:model` ids `run` uses when no --model is given. */
  models: z.array(z.string().min(1)).optional(),
  /** Per-model prices (USD per million tokens), over the shipped table and ~/.longhaul/pricing.json. */
  pricing: z.record(z.string().min(1), priceEntrySchema).optional(),
  /** Plugin modules: paths (relative to the config file) or installed package names. */
  plugins: z.array(z.string().min(1)).optional(),
  /** Installed agents by name (npm package, version, start command): docs/agents.md. */
  agents: z.record(z.string().regex(/^[a-z][a-z0-9-]*$/), installedAgentSpecSchema).optional(),
});
/** A config file's contents, checked. */
export type ConfigFile = z.infer<typeof configFileSchema>;

/** Where one effective value came from. */
export type ConfigSource = "default" | "environment" | "command line" | { file: string };

/** One effective value and its origin. */
export interface Sourced<T> {
  value: T;
  source: ConfigSource;
}

/** The configuration every command starts from. */
export interface EffectiveConfig {
  /** The config file read, if any, and how it was found. */
  file: { path: string; foundBy: "--config" | "LONGHAUL_CONFIG" | "current folder" } | null;
  jobsDir: Sourced<string>;
  sandbox: Sourced<string>;
  models: Sourced<string[]>;
  /** Price overrides by model id. */
  pricingModels: Record<string, Sourced<z.infer<typeof priceEntrySchema>>>;
  /** Plugins to load, each resolved against its base folder. */
  plugins: { spec: string; baseDir: string; source: ConfigSource }[];
  /** Installed agents defined in the file, by name. */
  agents: Record<string, Sourced<z.infer<typeof installedAgentSpecSchema>>>;
}

/**
 * Types a config written in TypeScript or JavaScript (`export const config = defineConfig({...})`);
 * it returns its argument, checked like any config file when loaded.
 */
export function defineConfig(config: ConfigFile): ConfigFile {
  return config;
}

/** Reads and checks a config file of any kind (a module config is evaluated). */
export async function readConfigFile(path: string): Promise<ConfigFile> {
  // Read first, so a folder named like a config file is a one-line error naming it.
  const text = readUserText(path);
  if (!isModuleConfig(path)) return parseConfigFile(path, text);
  const raw = await importConfigModule(path);
  return checkConfig(path, text, raw);
}

/** Reads and checks a JSON or TOML config: a parse error names the file and line, a schema error the key. */
export function parseConfigFile(path: string, text: string): ConfigFile {
  let raw: unknown;
  if (path.endsWith(".toml")) {
    try {
      raw = parseToml(text);
    } catch (e) {
      if (e instanceof TomlError) {
        throw new InputError(path, e.line, undefined, `not valid TOML: ${e.message.split("\n")[0]}`);
      }
      throw e;
    }
  } else if (path.endsWith(".json")) {
    raw = parseUserJson(path, text);
  } else {
    throw new UserError(
      `${path}: a config file is .ts, .mts, .js, .mjs, .json or .toml (e.g. longhaul.config.json)`,
    );
  }
  return checkConfig(path, text, raw);
}

/** Checks a config's parsed contents; an error names the file, the key and the key's line. */
function checkConfig(path: string, text: string, raw: unknown): ConfigFile {
  const r = configFileSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const keys = issue?.code === "unrecognized_keys" ? issue.keys : [];
    const at = [...(issue?.path ?? []), ...keys.slice(0, 1)].map(String);
    const field = at.join(".");
    // A key left out has no line of its own: the entry that lacks it is where to look.
    const missing = issue?.code === "invalid_type" && valueAt(raw, at) === undefined;
    const what =
      keys.length > 0
        ? `unknown key "${field}" (known keys: ${Object.keys(configFileSchema.shape).join(", ")})`
        : missing
          ? `${field}: missing (expected ${issue.expected})`
          : `${field}: ${issue?.message ?? "invalid"}`;
    throw new InputError(path, configKeyLine(text, at), field, what);
  }
  return r.data;
}

/**
 * An InputError about a value the config file set (checked only once plugins are loaded, as a
 * sandbox provider's name is): the file, the key's line and the key.
 */
export function configValueError(file: string, path: readonly string[], detail: string): InputError {
  const field = path.join(".");
  return new InputError(file, configKeyLine(readUserText(file), path), field, `${field}: ${detail}`);
}

function valueAt(raw: unknown, path: readonly string[]): unknown {
  let v = raw;
  for (const k of path)
    v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/**
 * The line of a key path such as ["pricing", "openai:gpt-4o", "output"]: each key is looked for
 * after the line of the one before it (so a model id in `models` is not taken for its price), and
 * a key not written at all gives the line of the deepest one that is. Undefined when none is.
 */
export function configKeyLine(text: string, path: readonly string[]): number | undefined {
  const lines = text.split("\n");
  let from = 0;
  let found: number | undefined;
  for (const key of path) {
    if (key === "" || /^\d+$/.test(key)) continue;
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // `"key":` (JSON), `key:` (TS), `key =` or `"key" =` (TOML, inline tables too), a `[key]`
    // header, or one part of a dotted TOML key or header (`[pricing."openai:gpt-4o"]`).
    const re = new RegExp(`(?:^|[{,\\s[.])["']?${escaped}["']?\\s*(?:[:=.]|\\])`);
    const i = lines.findIndex((l, n) => n >= from && re.test(l));
    if (i < 0) break;
    found = i + 1;
    from = i;
  }
  return found;
}

/** The config file to read: --config, else LONGHAUL_CONFIG, else one in `cwd` (none is fine). */
export function findConfigFile(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): EffectiveConfig["file"] {
  const named = explicit ?? env.LONGHAUL_CONFIG;
  if (named !== undefined && named !== "") {
    const path = resolve(cwd, named);
    const by = explicit !== undefined ? "--config" : "LONGHAUL_CONFIG";
    if (!existsSync(path)) throw new UserError(`${by} ${named}: no such file`);
    return { path, foundBy: by };
  }
  for (const name of CONFIG_FILE_NAMES) {
    const path = resolve(cwd, name);
    if (existsSync(path)) return { path, foundBy: "current folder" };
  }
  return null;
}

/** The effective configuration: defaults, overlaid with the file, then the environment. */
export async function loadConfig(opts: {
  config?: string;
  plugins?: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}): Promise<EffectiveConfig> {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const file = findConfigFile(opts.config, env, cwd);
  const data = file === null ? {} : await readConfigFile(file.path);
  const fileSource: ConfigSource = file === null ? "default" : { file: file.path };
  const baseDir = file === null ? cwd : dirname(file.path);
  const pick = <T>(envValue: T | undefined, fileValue: T | undefined, fallback: T): Sourced<T> => {
    if (envValue !== undefined) return { value: envValue, source: "environment" };
    if (fileValue !== undefined) return { value: fileValue, source: fileSource };
    return { value: fallback, source: "default" };
  };
  const envModels = env.LONGHAUL_MODELS?.split(",").filter((m) => m !== "");
  const pricingModels: EffectiveConfig["pricingModels"] = {};
  for (const [model, price] of Object.entries(data.pricing ?? {}))
    pricingModels[model] = { value: price, source: fileSource };
  const agents: EffectiveConfig["agents"] = {};
  for (const [name, spec] of Object.entries(data.agents ?? {}))
    agents[name] = { value: spec, source: fileSource };
  return {
    file,
    jobsDir: pick(
      nonEmpty(env.LONGHAUL_JOBS_DIR),
      data.jobsDir === undefined ? undefined : resolve(baseDir, data.jobsDir),
      "jobs",
    ),
    sandbox: pick(nonEmpty(env.LONGHAUL_SANDBOX), data.sandbox, "bwrap"),
    models: pick(envModels !== undefined && envModels.length > 0 ? envModels : undefined, data.models, []),
    pricingModels,
    agents,
    plugins: [
      ...(data.plugins ?? []).map((spec) => ({ spec, baseDir, source: fileSource })),
      ...(opts.plugins ?? []).map((spec) => ({ spec, baseDir: cwd, source: "command line" as const })),
    ],
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** A source as `config show` prints it. */
export function describeSource(source: ConfigSource): string {
  return typeof source === "string" ? source : source.file;
}
