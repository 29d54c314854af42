import { z } from "zod";

/** The one queue every worker takes trials from. */
export const TRIAL_QUEUE = "longhaul-trials";

/** A queue job's id: the longhaul job and the trial, so enqueueing a trial twice adds it once. */
export function queueJobId(jobId: string, trialId: string): string {
  return `${jobId}__${trialId}`;
}

const digest = z.string().regex(/^[0-9a-f]{64}$/);

/** A per-model limit shared by every worker: at most `max` trials started per `window_ms`. */
export const rateLimitSchema = z.object({
  max: z.number().int().positive(),
  window_ms: z.number().int().positive(),
});
export type RateLimit = z.infer<typeof rateLimitSchema>;

/** What a queued trial carries: everything a worker needs, and nothing from the coordinator's disk. */
export const trialJobSchema = z.object({
  v: z.literal(1),
  job_id: z.string().min(1),
  trial_id: z.string().min(1),
  task: z.object({ name: z.string(), folder: z.string(), checksum: z.string(), bundle: digest }),
  agent: z.string(),
  agent_options: z.record(z.string(), z.string()),
  model: z.string().nullable(),
  attempt: z.number().int().positive(),
  seed: z.number().int().nonnegative(),
  timeout_multiplier: z.number().positive(),
  until_timeout: z.boolean(),
  retries: z.number().int().nonnegative(),
  rate_limit: rateLimitSchema.nullable(),
});
export type TrialJobData = z.infer<typeof trialJobSchema>;

/** What a worker returns: the trial's result (checked by the coordinator) and its folder's blob. */
export const trialReturnSchema = z.object({
  result: z.unknown(),
  artifacts: digest.nullable(),
  worker: z.string(),
});
export type TrialReturn = z.infer<typeof trialReturnSchema>;

/** `MODEL=N/60s` (or `/500ms`, `/2m`): the shared per-model limit of `run --rate-limit`. */
export function parseRateLimit(text: string): { model: string; limit: RateLimit } | null {
  const m = /^(.+)=(\d+)\/(\d+)(ms|s|m)$/.exec(text);
  if (!m?.[1] || !m[2] || !m[3] || !m[4]) return null;
  const unit = m[4] === "ms" ? 1 : m[4] === "s" ? 1000 : 60_000;
  const max = Number(m[2]);
  const window_ms = Number(m[3]) * unit;
  if (max <= 0 || window_ms <= 0) return null;
  return { model: m[1], limit: { max, window_ms } };
}
