import { z } from "zod";
import { issuesToError, parseTomlFile } from "../grading/toml-source.js";
import type { TaskConfig } from "./types.js";

/** Harbor's defaults, used when task.toml leaves a field out. */
export const TASK_DEFAULTS = {
  version: "1.0",
  category: "uncategorized",
  difficulty: "unknown",
  agentTimeoutSec: 600,
  verifierTimeoutSec: 600,
  cpus: 1,
  memoryMb: 2048,
  storageMb: 10240,
  workdir: "/app",
  buildTimeoutSec: 600,
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

/** Why a workdir cannot hold the task's files in the sandbox, or null when it can. */
export function workdirProblem(p: string): string | null {
  if (!p.startsWith("/")) return "must be an absolute path";
  if (p.includes("\0")) return "must not contain a NUL character";
  const parts = p.split("/").filter((x) => x !== "");
  if (parts.includes("..") || parts.includes(".")) return "must not contain . or .. components";
  if (parts.length === 0) return "must not be / (the sandbox root)";
  const norm = `/${parts.join("/")}`;
  for (const root of RESERVED_SANDBOX_PATHS) {
    if (norm === root || norm.startsWith(`${root}/`))
      return `must not be inside ${root} (reserved in the sandbox)`;
  }
  return null;
}
const text = (what = "must be a string") => z.string({ error: what });
const nonEmpty = () => text("must be a non-empty string").min(1, { error: "must be a non-empty string" });
// Harbor adds fields over time: unknown keys are accepted and dropped (z.object strips), never
// an error. Absent sections parse from {} so their own defaults apply.
const asTable = { error: "must be a table" } as const;

export const taskConfigSchema = z.object({
  version: text().default(TASK_DEFAULTS.version),
  task: z
    .object(
      {
        name: nonEmpty()
          .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, { error: "must use letters, digits, . _ - or /" })
          .nullable()
          .default(null),
        description: text().nullable().default(null),
      },
      asTable,
    )
    .prefault({}),
  metadata: z
    .object(
      {
        category: nonEmpty().default(TASK_DEFAULTS.category),
        difficulty: nonEmpty().default(TASK_DEFAULTS.difficulty),
        expert_time_estimate_min: positive().nullable().default(null),
        tags: z.array(text("must be a list of strings"), { error: "must be a list of strings" }).default([]),
        author_name: text().nullable().default(null),
      },
      asTable,
    )
    .prefault({}),
  agent: z.object({ timeout_sec: timeout().default(TASK_DEFAULTS.agentTimeoutSec) }, asTable).prefault({}),
  verifier: z
    .object({ timeout_sec: timeout().default(TASK_DEFAULTS.verifierTimeoutSec) }, asTable)
    .prefault({}),
  environment: z
    .object(
      {
        cpus: positive()
          .superRefine(refineWith(atMost(TASK_LIMITS.maxCpus, "CPUs")))
          .default(TASK_DEFAULTS.cpus),
        memory_mb: memoryMb().default(TASK_DEFAULTS.memoryMb),
        storage_mb: memoryMb().default(TASK_DEFAULTS.storageMb),
        allow_internet: z.boolean({ error: "must be true or false" }).default(false),
        workdir: text()
          .superRefine(refineWith((p: string) => workdirProblem(p) ?? true))
          .default(TASK_DEFAULTS.workdir),
        docker_image: nonEmpty().nullable().default(null),
        build_timeout_sec: timeout().default(TASK_DEFAULTS.buildTimeoutSec),
      },
      asTable,
    )
    .prefault({}),
  requires: z
    .object(
      {
        host_tools: z
          .array(nonEmpty().regex(/^[A-Za-z0-9._+-]+$/, { error: "must be plain program names" }), {
            error: "must be a list of program names",
          })
          .default([]),
      },
      asTable,
    )
    .prefault({}),
});

/** Parse and validate task.toml text. `file` is the path as the user gave it, for messages. */
export function parseTaskConfig(file: string, text: string): TaskConfig {
  const data = parseTomlFile(file, text);
  const result = taskConfigSchema.safeParse(data);
  if (!result.success) throw issuesToError(file, text, data, result.error.issues);
  return result.data satisfies TaskConfig;
}
