import { InputError } from "../core/errors.js";
import { lineOfKey } from "../core/toml-source.js";
import { templateProblems } from "./env-template.js";
import type { TaskConfig } from "./types.js";

/**
 * Harbor's task.toml fields that longhaul's schema does not type, or types but cannot apply
 * here. Every field is either honoured, refused with a message naming file and field, or
 * accepted with a warning saying what longhaul does instead (table in docs/tasks.md).
 */

/** Every key Harbor defines (and longhaul's [requires]); anything else is warned about. */
const KNOWN: Record<string, readonly string[] | "free-form"> = {
  "": [
    "version",
    "schema_version",
    "source",
    "task",
    "metadata",
    "agent",
    "verifier",
    "solution",
    "environment",
    "requires",
  ],
  task: ["name", "description", "authors", "keywords", "version"],
  // Harbor's [metadata] is a free-form table: any key is the author's own.
  metadata: "free-form",
  agent: ["timeout_sec", "user", "network_mode", "allowed_hosts"],
  // `root` is longhaul's own (an image task's verifier root; docs/tasks.md).
  verifier: ["timeout_sec", "env", "user", "network_mode", "allowed_hosts", "root"],
  solution: ["env"],
  environment: [
    "build_timeout_sec",
    "docker_image",
    "os",
    "cpus",
    "memory_mb",
    "storage_mb",
    "gpus",
    "gpu_types",
    "tpu",
    "allow_internet",
    "network_mode",
    "allowed_hosts",
    "mcp_servers",
    "env",
    "skills_dir",
    "healthcheck",
    "workdir",
    "memory",
    "storage",
  ],
  requires: ["host_tools", "nested_sandbox"],
};

type Raw = Record<string, unknown>;

function table(data: Raw, key: string): Raw | null {
  const v = data[key];
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Raw) : null;
}

/** Harbor's deprecated `memory = "2G"` / `storage = "10G"`: converted to the _mb fields, with a warning. */
export function migrateDeprecated(file: string, text: string, data: Raw, warnings: string[]): void {
  const env = table(data, "environment");
  if (env === null) return;
  for (const [old, mb] of [
    ["memory", "memory_mb"],
    ["storage", "storage_mb"],
  ] as const) {
    const v = env[old];
    if (v === undefined) continue;
    const at = where(file, text, ["environment", old]);
    const parsed = typeof v === "string" ? sizeToMb(v) : null;
    if (parsed === null) {
      throw new InputError(
        file,
        lineOfKey(text, ["environment", old]),
        `environment.${old}`,
        `[environment] ${old} must be a size like "2G" or "512M", got ${JSON.stringify(v)}`,
      );
    }
    if (env[mb] !== undefined && env[mb] !== parsed) {
      throw new InputError(
        file,
        lineOfKey(text, ["environment", old]),
        `environment.${old}`,
        `[environment] ${old} = ${JSON.stringify(v)} (${parsed} MiB) conflicts with ${mb} = ${String(env[mb])}`,
      );
    }
    env[mb] = parsed;
    delete env[old];
    warnings.push(`${at}: [environment] ${old} is deprecated (Harbor too); read as ${mb} = ${parsed}`);
  }
}

function sizeToMb(s: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([GMK])\s*$/i.exec(s);
  if (!m?.[1] || !m[2]) return null;
  const n = Number(m[1]);
  const unit = m[2].toUpperCase();
  const mb = Math.trunc(unit === "G" ? n * 1024 : unit === "M" ? n : n / 1024);
  return mb > 0 ? mb : null;
}

/**
 * Refuses what cannot run here (GPUs, TPUs, another OS, host allowlists), settles the network
 * choice, and warns about fields recorded but not applied and about keys Harbor does not define.
 */
export function checkHarborFields(
  file: string,
  text: string,
  data: Raw,
  c: TaskConfig,
  warnings: string[],
  hasDockerfile = false,
): void {
  const refuse = (path: string[], detail: string): never => {
    throw new InputError(
      file,
      lineOfKey(text, path),
      path.join("."),
      `[${path[0]}] ${path.slice(1).join(".")} ${detail}`,
    );
  };
  const warn = (path: string[], detail: string): void => {
    warnings.push(`${where(file, text, path)}: [${path[0]}] ${path.slice(1).join(".")} ${detail}`);
  };
  const env = c.environment;
  const rawEnv = table(data, "environment") ?? {};

  if (env.gpus > 0)
    refuse(
      ["environment", "gpus"],
      `= ${env.gpus}: longhaul's sandboxes have no GPUs; this task cannot run here`,
    );
  if (rawEnv.tpu !== undefined)
    refuse(["environment", "tpu"], "is set: longhaul's sandboxes have no TPUs; this task cannot run here");
  if (env.os !== "linux") refuse(["environment", "os"], `= "${env.os}": longhaul runs Linux sandboxes only`);
  if (rawEnv.gpu_types !== undefined)
    warn(["environment", "gpu_types"], "is ignored: the task asks for no GPUs");

  // Network: network_mode wins over allow_internet (as in Harbor); an allowlist cannot be enforced.
  if (env.network_mode === "allowlist" || env.allowed_hosts.length > 0) {
    refuse(
      ["environment", env.network_mode === "allowlist" ? "network_mode" : "allowed_hosts"],
      'asks for a host allowlist: longhaul sandboxes have either the whole network or none; use network_mode = "public" or "no-network"',
    );
  }
  if (env.network_mode !== null) {
    const wantsNet = env.network_mode === "public";
    if (rawEnv.allow_internet !== undefined && rawEnv.allow_internet !== wantsNet) {
      refuse(
        ["environment", "allow_internet"],
        `= ${String(rawEnv.allow_internet)} contradicts network_mode = "${env.network_mode}"`,
      );
    }
    env.allow_internet = wantsNet;
  }
  for (const phase of ["agent", "verifier"] as const) {
    const p = c[phase];
    if (p.network_mode !== null || p.allowed_hosts.length > 0) {
      warn(
        [phase, p.network_mode !== null ? "network_mode" : "allowed_hosts"],
        `is not applied: both phases run with the [environment] network (${env.allow_internet ? "public" : "no-network"})`,
      );
    }
    // Over an image the user is looked up in the image and applied (docs/tasks.md); a host task
    // has no user table of its own, so its commands run as the sandbox user.
    if (p.user !== null && !hasDockerfile && env.docker_image === null) {
      warn(
        [phase, "user"],
        `= "${p.user}" is recorded but not applied: a task without an image runs every command as the sandbox user`,
      );
    }
  }
  if (env.mcp_servers.length > 0) {
    warn(
      ["environment", "mcp_servers"],
      `names ${env.mcp_servers.map((m) => m.name).join(", ")}: recorded, but no built-in agent connects to MCP servers yet`,
    );
  }
  if (rawEnv.skills_dir !== undefined)
    warn(["environment", "skills_dir"], "is ignored: no built-in agent loads skills");
  if (rawEnv.healthcheck !== undefined)
    warn(
      ["environment", "healthcheck"],
      "is ignored: longhaul starts no services, so the agent starts as soon as the sandbox exists",
    );

  for (const [section, vars] of [
    ["environment", env.env],
    ["verifier", c.verifier.env],
    ["solution", c.solution.env],
  ] as const) {
    for (const [name, problem] of templateProblems(vars)) {
      refuse([section, "env", name], problem);
    }
  }
  unknownKeys(file, text, data, warnings);
}

function unknownKeys(file: string, text: string, data: Raw, warnings: string[]): void {
  for (const [section, known] of Object.entries(KNOWN)) {
    if (known === "free-form") continue;
    const t = section === "" ? data : table(data, section);
    if (t === null) continue;
    for (const key of Object.keys(t)) {
      if (known.includes(key)) continue;
      const path = section === "" ? [key] : [section, key];
      const label = section === "" ? key : `[${section}] ${key}`;
      warnings.push(`${where(file, text, path)}: ${label} is not a Harbor task.toml field; ignored`);
    }
  }
}

function where(file: string, text: string, path: readonly string[]): string {
  const line = lineOfKey(text, path);
  return line === undefined ? file : `${file}:${line}`;
}
