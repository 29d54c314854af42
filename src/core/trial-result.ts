import { z } from "zod";
import { worldChatSchema } from "./world-chat.js";

/**
 * The record of one trial, the unit every report is built from. Written to
 * `<job>/<trial>/result.json` and indexed in SQLite. Later modules (LLM agents, world teams)
 * fill more of `usage`; the shape stays the same so every report reads every kind of trial.
 */
export const OUTCOMES = [
  "completed",
  "agent_timeout",
  "agent_error",
  "grading_error",
  "infra_error",
] as const;
/** How a trial ended: one of OUTCOMES. */
export type Outcome = (typeof OUTCOMES)[number];

export const SUBTASK_KINDS = ["binary", "continuous", "episode"] as const;
export type SubtaskKind = (typeof SUBTASK_KINDS)[number];

export const VISIBILITIES = ["public", "hidden"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const subtaskScoreSchema = z.object({
  id: z.string(),
  weight: z.number().positive(),
  kind: z.enum(SUBTASK_KINDS),
  visibility: z.enum(VISIBILITIES),
  score: z.number().min(0).max(1),
  /** Set when the score could not be read and 0 was recorded instead. */
  error: z.string().nullable().default(null),
  message: z.string().nullable().default(null),
});
export type SubtaskScore = z.infer<typeof subtaskScoreSchema>;

export const usageSchema = z.object({
  input_tokens: z.number().int().nonnegative().default(0),
  output_tokens: z.number().int().nonnegative().default(0),
  cached_tokens: z.number().int().nonnegative().default(0),
  reasoning_tokens: z.number().int().nonnegative().default(0),
  cost_usd: z.number().nonnegative().default(0),
  turns: z.number().int().nonnegative().default(0),
  parse_errors: z.number().int().nonnegative().default(0),
  model_sec: z.number().nonnegative().default(0),
  command_sec: z.number().nonnegative().default(0),
  /**
   * False when a model call had no price, so `cost_usd` is not the real cost. Absent in results
   * written before it was recorded; readers then treat tokens spent at $0 by a model as unknown.
   */
  cost_known: z.boolean().optional(),
});
export type Usage = z.infer<typeof usageSchema>;

export const timingSchema = z.object({
  started_at: z.string(),
  finished_at: z.string(),
  setup_sec: z.number().nonnegative(),
  agent_sec: z.number().nonnegative(),
  verifier_sec: z.number().nonnegative(),
  /** Wall time of tests/test.sh itself; verifier_sec adds resetting logs and collecting files. */
  verifier_command_sec: z.number().nonnegative().default(0),
  total_sec: z.number().nonnegative(),
});
export type Timing = z.infer<typeof timingSchema>;

/**
 * Continue-until-timeout mode: when the agent declares completion early, the public checks run;
 * if they fail it is told so and goes on until its budget ends.
 */
export const continuationSchema = z.object({
  /** How many times the agent declared completion. */
  self_terminations: z.number().int().nonnegative(),
  /** How many times it was sent back after failing public checks. */
  reentries: z.number().int().nonnegative(),
  /** Agent seconds used at its first declared completion (null: it never declared one). */
  first_stop_sec: z.number().nonnegative().nullable(),
  /** R of the workdir as it was at the first declared completion, verified separately. */
  reward_at_first_stop: z.number().min(0).max(1).nullable(),
});
export type Continuation = z.infer<typeof continuationSchema>;

const count = z.number().int().nonnegative();

/**
 * Causal contribution of a world trial (docs/world.md, "Causal contribution"): which calls the
 * success traces back to. Calls are indices into the run file's `calls` (one per turn, waits
 * included). A failed run has no witnesses and an empty closure (its CCE is 0).
 */
export const worldCceSchema = z.object({
  /** Every agent's calls (the denominator of `cce`), and how many of them were `wait`. */
  actions: count,
  waits: count,
  /** Calls in the closure (the numerator). */
  contributing: count,
  /** contributing / actions (0 with no actions). */
  cce: z.number().min(0).max(1),
  /** contributing / (actions − waits): the same with waits left out of the denominator. */
  cce_active: z.number().min(0).max(1),
  witnesses: z.array(count),
  closure: z.array(count),
  /** Closure calls per rule that brought them in (witness, item, equipment, wounds, tool, skill, portal, position, information). */
  reasons: z.record(z.string(), count),
  agents: z.array(
    z.object({
      id: z.string(),
      actions: count,
      waits: count,
      contributing: count,
      /** contributing / actions of this agent; null when it made no call. */
      pac: z.number().min(0).max(1).nullable(),
      /** This agent's share of all calls. */
      share: z.number().min(0).max(1),
    }),
  ),
  /** Counterfactual replays with one call replaced by `wait` (null when not run). */
  counterfactual: z
    .object({
      seed: z.number().int(),
      /** Sampled closure calls, and how many of them were necessary (success failed without them). */
      inside: z.object({ sampled: count, necessary: count }),
      /** Sampled calls outside the closure (waits not sampled), and how many broke success when replaced. */
      outside: z.object({ sampled: count, breaking: count }),
      calls: z.array(z.object({ index: count, in_closure: z.boolean(), success: z.boolean() })),
    })
    .nullable(),
  /** Milliseconds to trace (the counterfactual replays not included). */
  trace_ms: z.number().nonnegative(),
});
export type WorldCce = z.infer<typeof worldCceSchema>;

/**
 * A world trial's own figures (a team played a world task): R is its PSR (the weighted share of
 * checkpoints reached, one subtask each), and `success` is SR's unit — whether every success
 * condition held at the end.
 */
export const worldTrialSchema = z.object({
  success: z.boolean(),
  success_detail: z.string(),
  rounds: z.number().int().nonnegative(),
  max_rounds: z.number().int().positive(),
  agents: z.array(z.object({ id: z.string(), role: z.string(), actions: z.number().int().nonnegative() })),
  /** The replayable run, relative to the trial folder. */
  run_file: z.string(),
  /** The modifiers the trial played under (e.g. `no-comm`, `round-budget=40`); absent in older results: none. */
  modifiers: z.array(z.string()).optional(),
  /** Causal contribution (CCE, PAC); absent in older results. */
  cce: worldCceSchema.optional(),
  /** Chat analysis (message counts, error types); absent in older results. */
  chat: worldChatSchema.optional(),
});
export type WorldTrial = z.infer<typeof worldTrialSchema>;

export const trialResultSchema = z.object({
  schema_version: z.literal(1),
  job_id: z.string(),
  trial_id: z.string(),
  task: z.object({
    name: z.string(),
    checksum: z.string(),
    category: z.string(),
    difficulty: z.string().nullable().default(null),
    path: z.string(),
  }),
  agent: z.string(),
  model: z.string().nullable(),
  attempt: z.number().int().nonnegative(),
  /** The hidden stress seed, given only to the verifier. */
  seed: z.number().int().nonnegative(),
  timing: timingSchema,
  outcome: z.enum(OUTCOMES),
  self_terminated: z.boolean(),
  /** R = Σ w·r / Σ w, recomputed on the host; null when grading failed. */
  reward: z.number().min(0).max(1).nullable(),
  subtasks: z.array(subtaskScoreSchema),
  grading_errors: z.array(z.string()).default([]),
  usage: usageSchema,
  /** How many times infrastructure failed before this result (retries). */
  infra_retries: z.number().int().nonnegative().default(0),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
  /**
   * Digest of the hidden stress inputs the verifier generated (reward-details.json
   * `stress_digest`), null when the verifier records none. Equal digests mean the same hidden work.
   */
  stress_digest: z.string().nullable().default(null),
  /** Seconds of the agent's budget left when it stopped on its own; null when it did not. */
  budget_left_sec: z.number().nonnegative().nullable().default(null),
  /** Set when the trial ran in continue-until-timeout mode (`run --until-timeout`). */
  continuation: continuationSchema.nullable().default(null),
  /** Set for a world task's trial; absent for a terminal task's. */
  world: worldTrialSchema.nullable().default(null),
});
/** One trial's record, as stored in `<job>/<trial>/result.json` (docs/formats.md). */
export type TrialResult = z.infer<typeof trialResultSchema>;

export function emptyUsage(): Usage {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cached_tokens: 0,
    reasoning_tokens: 0,
    cost_usd: 0,
    turns: 0,
    parse_errors: 0,
    model_sec: 0,
    command_sec: 0,
  };
}
