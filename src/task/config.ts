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

// Messages read after "[section] key" and before ", got <value>".
const positive = () =>
  z.number({ error: "must be a positive number" }).positive({ error: "must be a positive number" });
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
  agent: z.object({ timeout_sec: positive().default(TASK_DEFAULTS.agentTimeoutSec) }, asTable).prefault({}),
  verifier: z
    .object({ timeout_sec: positive().default(TASK_DEFAULTS.verifierTimeoutSec) }, asTable)
    .prefault({}),
  environment: z
    .object(
      {
        cpus: positive().default(TASK_DEFAULTS.cpus),
        memory_mb: positive().default(TASK_DEFAULTS.memoryMb),
        storage_mb: positive().default(TASK_DEFAULTS.storageMb),
        allow_internet: z.boolean({ error: "must be true or false" }).default(false),
        workdir: text()
          .regex(/^\/[^\0]*$/, { error: "must be an absolute path" })
          .default(TASK_DEFAULTS.workdir),
        docker_image: nonEmpty().nullable().default(null),
        build_timeout_sec: positive().default(TASK_DEFAULTS.buildTimeoutSec),
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
