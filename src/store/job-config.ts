import { z } from "zod";
import { InputError, lineCol } from "../core/index.js";

/** `<job>/config.json`: everything needed to resume the job exactly as it was started. */
export const jobConfigSchema = z
  .object({
    schema_version: z.literal(1),
    job_id: z.string(),
    created_at: z.string(),
    tasks: z.array(z.object({ name: z.string(), path: z.string(), checksum: z.string() })),
    agents: z.array(z.string()).min(1),
    models: z.array(z.string().nullable()).min(1),
    attempts: z.number().int().positive(),
    concurrency: z.number().int().positive(),
    timeout_multiplier: z.number().positive(),
    retries: z.number().int().nonnegative(),
    /** Master seed: each trial's hidden stress seed is derived from it, the task and the attempt. */
    seed: z.number().int().nonnegative(),
    /**
     * Each attempt's trial seed, given outright (`longhaul world run --seeds 1,2,3`) instead of
     * derived from `seed`; its length is `attempts`. Absent: every seed is derived.
     */
    attempt_seeds: z.array(z.number().int().nonnegative()).min(1).optional(),
    sandbox: z.string(),
    agent_options: z.record(z.string(), z.string()),
    /** Continue-until-timeout mode: a declared completion that fails the public checks goes on. */
    until_timeout: z.boolean().optional(),
    /**
     * The Redis URL of the queue the job last ran on (`run --queue`), with its password masked
     * (`***`): the resume command a report prints names it. Absent: a local job, or a queued one
     * started before longhaul recorded it.
     */
    queue_url: z.string().optional(),
  })
  .refine((c) => c.attempt_seeds === undefined || c.attempt_seeds.length === c.attempts, {
    message: "attempt_seeds must list exactly one seed per attempt",
    path: ["attempt_seeds"],
  });
/** A job's config.json (see jobConfigSchema); build a new one with buildJobConfig. */
export type JobConfig = z.infer<typeof jobConfigSchema>;

/**
 * Parse a job's config.json. A truncated or hand-edited file is the user's to fix: the message
 * names the file and the line and column of a syntax error, or the field that is wrong.
 */
export function parseJobConfig(path: string, text: string): JobConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(detail)?.[1];
    // V8 names no position for text that stops early: the error is at the end.
    const { line, col } = lineCol(text, at === undefined ? text.length : Number(at));
    throw new InputError(
      path,
      line,
      undefined,
      `column ${col}: invalid JSON (${detail}); the file may be truncated`,
    );
  }
  const parsed = jobConfigSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".") ?? "";
    throw new InputError(
      path,
      undefined,
      field,
      `field ${field === "" ? "(top level)" : field}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}
