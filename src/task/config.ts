import { z } from "zod";
import { issuesToError, parseTomlFile } from "../core/toml-source.js";
import { checkHarborFields, migrateDeprecated } from "./config-harbor.js";
import { METADATA_DEFAULTS, metadataSchema, settleMetadata } from "./config-metadata.js";
import { taskNameProblem } from "./task-name.js";
import type { TaskConfig } from "./types.js";

/** Harbor's defaults, used when task.toml leaves a field out. */
export const TASK_DEFAULTS = {
  version: "1.0",
  category: METADATA_DEFAULTS.category,
  difficulty: METADATA_DEFAULTS.difficulty,
  agentTimeoutSec: 600,
  verifierTimeoutSec: 600,
  cpus: 1,
  memoryMb: 2048,
  storageMb: 10240,
  workdir: "/app",
  buildTimeoutSec: 600,
  /** Harbor's default: a task gets the network unless it says otherwise. */
  allowInternet: true,
} as const;

/**
 * Upper bounds that keep every value usable by the runner: timers fire at once past 2^31-1 ms
 * (about 24.8 days), so a timeout stays under 11.5 days even at --timeout-multiplier 2; memory
 * in bytes must stay an exact integer for the cgroup and rlimit files.
 */
export const TASK_LIMITS = { maxTimeoutSec: 1_000_000, maxMemoryMb: 4_194_304, maxCpus: 1024 } as const;

/**
 * Sandbox paths a workdir may not be, contain or sit inside: host folders bound read-only, the
 * sandbox's own persistent folders, and the mount points of the solution, tests and grader kit.
 * Kept equal to the sandbox layer's reserved roots (a test compares them).
 */
export const RESERVED_SANDBOX_PATHS = [
  "/usr",
  "/etc",
  "/opt",
  "/var",
  "/bin",
  "/sbin",
  "/lib",
  "/lib64",
  "/dev",
  "/proc",
  "/run",
  "/logs",
  "/tmp",
  "/root",
  "/tests",
  "/solution",
  "/longhaul",
] as const;

// Messages read after "[section] key" and before ", got <value>".
const positive = () =>
  z.number({ error: "must be a positive number" }).positive({ error: "must be a positive number" });
const atMost = (max: number, unit: string) => (n: number) => n <= max || `must be at most ${max} ${unit}`;
const timeout = () => positive().superRefine(refineWith(atMost(TASK_LIMITS.maxTimeoutSec, "seconds")));
const memoryMb = () =>
  z
    .number({ error: "must be a whole number of MiB" })
    .int({ error: "must be a whole number of MiB" })
    .positive({ error: "must be a whole number of MiB" })
    .superRefine(refineWith(atMost(TASK_LIMITS.maxMemoryMb, "MiB")));

/** A zod refinement whose message is chosen by the check: true passes, a string is the message. */
function refineWith<T>(check: (v: T) => true | string): (v: T, ctx: z.RefinementCtx) => void {
  return (v, ctx) => {
    const r = check(v);
    if (r !== true) ctx.addIssue({ code: "custom", message: r });
  };
}

/**
 * Paths an image task's workdir may not be, contain or sit inside: the image's own root file
 * system is the sandbox's (writable, like a container), so only the folders longhaul mounts over
 * it stay reserved.
 */
export const IMAGE_RESERVED_PATHS = ["/dev", "/proc", "/logs", "/tests", "/solution", "/longhaul"] as const;

/**
 * Why a workdir cannot hold the task's files in the sandbox, or null when it can. Host tasks
 * (the workdir sits beside the host's own system folders) reserve more than image tasks.
 */
export function workdirProblem(p: string, image = false): string | null {
  if (!p.startsWith("/")) return "must be an absolute path";
  if (p.includes("\0")) return "must not contain a NUL character";
  const parts = p.split("/").filter((x) => x !== "");
  if (parts.includes("..") || parts.includes(".")) return "must not contain . or .. components";
  if (parts.length === 0) return "must not be / (the sandbox root)";
  const norm = `/${parts.join("/")}`;
  for (const root of image ? IMAGE_RESERVED_PATHS : RESERVED_SANDBOX_PATHS) {
    if (norm === root || norm.startsWith(`${root}/`))
      return `must not be inside ${root} (reserved in the sandbox)`;
  }
  return null;
}
const text = (what = "must be a string") => z.string({ error: what });
const nonEmpty = () => text("must be a non-empty string").min(1, { error: "must be a non-empty string" });
const asTable = { error: "must be a table" } as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `[environment.env]`, `[verifier.env]`, `[solution.env]`: variable name → string value. */
const envTable = () =>
  z
    .record(text("must be a table of strings"), text("values must be strings"), {
      error: 'must be a table of NAME = "value" strings',
    })
    .superRefine((env, ctx) => {
      for (const k of Object.keys(env)) {
        if (!ENV_NAME.test(k)) {
          ctx.addIssue({
            code: "custom",
            path: [k],
            message: "must be a variable name ([A-Za-z_][A-Za-z0-9_]*)",
          });
        }
      }
    })
    .default({});
/** Harbor takes a user name or a uid. */
/** What the verifier of an image task runs on: a fresh copy of the image, or the agent's root. */
export const VERIFIER_ROOTS = ["image", "sandbox"] as const;
export type VerifierRoot = (typeof VERIFIER_ROOTS)[number];

const user = () =>
  z
    .union([nonEmpty(), z.number().int().nonnegative()], { error: "must be a user name or a uid" })
    .transform((u) => String(u))
    .nullable()
    .default(null);
const networkMode = () =>
  z
    .enum(["public", "no-network", "allowlist"], { error: 'must be "public", "no-network" or "allowlist"' })
    .nullable()
    .default(null);
const hostList = () =>
  z.array(text("must be a list of host names"), { error: "must be a list of host names" }).default([]);

const mcpServer = z
  .object(
    {
      name: nonEmpty(),
      transport: z
        .enum(["sse", "streamable-http", "http", "stdio"], {
          error: 'must be "sse", "streamable-http" or "stdio"',
        })
        .transform((t) => (t === "http" ? "streamable-http" : t))
        .default("sse"),
      url: nonEmpty().nullable().default(null),
      command: nonEmpty().nullable().default(null),
      args: z.array(text("must be a list of strings"), { error: "must be a list of strings" }).default([]),
    },
    asTable,
  )
  .superRefine((m, ctx) => {
    if (m.transport !== "stdio" && m.url === null) {
      ctx.addIssue({ code: "custom", path: ["url"], message: `is required for transport "${m.transport}"` });
    }
    if (m.transport === "stdio" && m.command === null) {
      ctx.addIssue({ code: "custom", path: ["command"], message: 'is required for transport "stdio"' });
    }
  });

/**
 * task.toml's schema. Unknown keys are stripped here and reported as warnings by
 * config-harbor.ts (Harbor adds fields over time: never an error). `hasDockerfile` decides which
 * workdirs are allowed (an image task's root file system is its own).
 */
export function taskConfigSchema(hasDockerfile: boolean) {
  return z.object({
    version: text().default(TASK_DEFAULTS.version),
    source: text().nullable().default(null),
    task: z
      .object(
        {
          name: nonEmpty()
            .superRefine(refineWith((n: string) => taskNameProblem(n) ?? true))
            .nullable()
            .default(null),
          description: text().nullable().default(null),
        },
        asTable,
      )
      .prefault({}),
    metadata: metadataSchema,
    agent: z
      .object(
        {
          timeout_sec: timeout().default(TASK_DEFAULTS.agentTimeoutSec),
          user: user(),
          network_mode: networkMode(),
          allowed_hosts: hostList(),
        },
        asTable,
      )
      .prefault({}),
    verifier: z
      .object(
        {
          timeout_sec: timeout().default(TASK_DEFAULTS.verifierTimeoutSec),
          env: envTable(),
          user: user(),
          // Over an image: the verifier's root file system (docs/tasks.md, "[verifier] root").
          root: z.enum(VERIFIER_ROOTS, { error: `must be one of ${VERIFIER_ROOTS.join(", ")}` }).optional(),
          network_mode: networkMode(),
          allowed_hosts: hostList(),
        },
        asTable,
      )
      .prefault({}),
    solution: z.object({ env: envTable() }, asTable).prefault({}),
    environment: z
      .object(
        {
          cpus: positive()
            .superRefine(refineWith(atMost(TASK_LIMITS.maxCpus, "CPUs")))
            .default(TASK_DEFAULTS.cpus),
          memory_mb: memoryMb().default(TASK_DEFAULTS.memoryMb),
          storage_mb: memoryMb().default(TASK_DEFAULTS.storageMb),
          gpus: z
            .number({ error: "must be a whole number" })
            .int({ error: "must be a whole number" })
            .nonnegative({ error: "must be a whole number" })
            .default(0),
          os: text()
            .transform((o) => o.toLowerCase())
            .default("linux"),
          allow_internet: z.boolean({ error: "must be true or false" }).default(TASK_DEFAULTS.allowInternet),
          network_mode: networkMode(),
          allowed_hosts: hostList(),
          workdir: text()
            .superRefine(refineWith((p: string) => workdirProblem(p, true) ?? true))
            .default(TASK_DEFAULTS.workdir),
          docker_image: nonEmpty().nullable().default(null),
          build_timeout_sec: timeout().default(TASK_DEFAULTS.buildTimeoutSec),
          env: envTable(),
          mcp_servers: z
            .array(mcpServer, { error: "must be [[environment.mcp_servers]] tables" })
            .default([]),
        },
        asTable,
      )
      .superRefine((e, ctx) => {
        // A host task's workdir sits beside the host's system folders, which stay reserved.
        if (e.docker_image !== null || hasDockerfile || workdirProblem(e.workdir, true) !== null) return;
        const problem = workdirProblem(e.workdir);
        if (problem !== null) ctx.addIssue({ code: "custom", path: ["workdir"], message: problem });
      })
      .prefault({}),
    requires: z
      .object(
        {
          host_tools: z
            .array(nonEmpty().regex(/^[A-Za-z0-9._+-]+$/, { error: "must be plain program names" }), {
              error: "must be a list of program names",
            })
            .default([]),
          // The verifier runs the agent's programs in sandboxes of its own (the grader kit's
          // sealed-run): providers that must loosen their confinement for it do so for this task.
          nested_sandbox: z.boolean({ error: "must be true or false" }).default(false),
        },
        asTable,
      )
      .prefault({}),
  });
}

export interface ParsedTaskConfig {
  config: TaskConfig;
  /** Fields longhaul reads but does not apply, unknown keys, deprecated forms: each names file and field. */
  warnings: string[];
}

/**
 * Parse and validate task.toml text. `file` is the path as the user gave it, for messages.
 * `hasDockerfile`: the task has environment/Dockerfile (an image task even without docker_image).
 */
export function parseTaskConfigWithWarnings(
  file: string,
  text: string,
  hasDockerfile = false,
): ParsedTaskConfig {
  const data = parseTomlFile(file, text);
  const warnings: string[] = [];
  migrateDeprecated(file, text, data, warnings);
  settleMetadata(file, text, data, warnings);
  const result = taskConfigSchema(hasDockerfile).safeParse(data);
  if (!result.success) throw issuesToError(file, text, data, result.error.issues);
  const config = result.data satisfies TaskConfig;
  checkHarborFields(file, text, data, config, warnings, hasDockerfile);
  return { config, warnings };
}

/** parseTaskConfigWithWarnings without the warnings. */
export function parseTaskConfig(file: string, text: string, hasDockerfile = false): TaskConfig {
  return parseTaskConfigWithWarnings(file, text, hasDockerfile).config;
}
