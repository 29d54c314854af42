import { z } from "zod";

/** The one queue every worker takes trials from. */
export const TRIAL_QUEUE = "longhaul-trials";

/** A queue job's id: the longhaul job and the trial, so enqueueing a trial twice adds it once. */
export function queueJobId(jobId: string, trialId: string): string {
  return `${jobId}__${trialId}`;
}

const digest = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * A name a worker puts in a path (its trial folder, the task's folder in its cache): one segment,
 * so a queue job written by someone else cannot make the worker write outside its cache.
 */
const segment = z
  .string()
  .min(1)
  .refine((s) => s !== "." && s !== ".." && !/[/\\\0]/.test(s), "must be one path segment (no /, no ..)");

/**
 * Bounds of `run --rate-limit`: past them a limit means nothing (no model takes a million starts
 * a window) and its Redis counter's expiry (two windows) would outlive any job.
 */
export const RATE_LIMIT_MAX_STARTS = 1_000_000;
export const RATE_LIMIT_MAX_WINDOW_MS = 24 * 3600_000;

/** BullMQ's highest priority number (2^21 − 1): a larger one fails when the trial is added. */
export const MAX_PRIORITY = 2_097_151;

/** A per-model limit shared by every worker: at most `max` trials started per `window_ms`. */
export const rateLimitSchema = z.object({
  max: z.number().int().positive().max(RATE_LIMIT_MAX_STARTS),
  window_ms: z.number().int().positive().max(RATE_LIMIT_MAX_WINDOW_MS),
});
export type RateLimit = z.infer<typeof rateLimitSchema>;

/** What a queued trial carries: everything a worker needs, and nothing from the coordinator's disk. */
export const trialJobSchema = z.object({
  v: z.literal(1),
  job_id: z.string().min(1),
  trial_id: segment,
  task: z.object({ name: z.string(), folder: segment, checksum: z.string(), bundle: digest }),
  agent: z.string(),
  agent_options: z.record(z.string(), z.string()),
  model: z.string().nullable(),
  attempt: z.number().int().positive(),
  seed: z.number().int().nonnegative(),
  timeout_multiplier: z.number().positive(),
  until_timeout: z.boolean(),
  retries: z.number().int().nonnegative(),
  rate_limit: rateLimitSchema.nullable(),
  /**
   * The coordinator's longhaul version: a worker of another version leaves the trial queued
   * (its plan or result could differ). Optional in the schema so an older coordinator's trial
   * is read, and then refused for its missing version, rather than failed as malformed.
   */
  longhaul_version: z.string().optional(),
});
export type TrialJobData = z.infer<typeof trialJobSchema>;

/** What a worker returns: the trial's result (checked by the coordinator) and its folder's blob. */
export const trialReturnSchema = z.object({
  result: z.unknown(),
  artifacts: digest.nullable(),
  worker: z.string(),
  /** Why the worker sent no artifacts (its trial folder was over the cap), for the coordinator's log. */
  artifacts_note: z.string().max(1000).optional(),
});
export type TrialReturn = z.infer<typeof trialReturnSchema>;

/** What `run --rate-limit` accepts, for its error line. */
export const RATE_LIMIT_USAGE = `expected MODEL=N/60s (or /500ms, /2m) with 1 ≤ N ≤ ${RATE_LIMIT_MAX_STARTS} and a window of at most 24 h`;

/**
 * `MODEL=N/60s` (or `/500ms`, `/2m`): the shared per-model limit of `run --rate-limit`; null
 * when malformed or out of bounds (a count past 2^53 is not even exact).
 */
export function parseRateLimit(text: string): { model: string; limit: RateLimit } | null {
  const m = /^(.+)=(\d+)\/(\d+)(ms|s|m)$/.exec(text);
  if (!m?.[1] || !m[2] || !m[3] || !m[4]) return null;
  const unit = m[4] === "ms" ? 1 : m[4] === "s" ? 1000 : 60_000;
  const max = Number(m[2]);
  const window_ms = Number(m[3]) * unit;
  const parsed = rateLimitSchema.safeParse({ max, window_ms });
  return parsed.success ? { model: m[1], limit: parsed.data } : null;
}
