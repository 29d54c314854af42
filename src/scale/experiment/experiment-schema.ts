import { z } from "zod";
import { OUTCOMES } from "../../core/trial-result.js";
import { VARIANTS } from "./variants.js";

const costSchema = z.object({
  seconds: z.number().min(0),
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
});

/** One lineage folder the experiment built or reused. */
export const experimentLineageSchema = z.object({
  task: z.string(),
  variant: z.enum(VARIANTS),
  /** Relative to the experiment folder. */
  dir: z.string(),
  /** False when the folder already held this lineage and it was reused as it was. */
  built: z.boolean(),
  /** Approved child per depth (task name), null where none was approved. */
  children: z.array(z.object({ depth: z.number().int().min(1), id: z.string().nullable() })),
  /** Constructing the children: planning, building, verifying (the lineage nodes' seconds and tokens). */
  construction: costSchema,
});

/** One trial the experiment ran. A root trial counts for every variant at depth 0. */
export const experimentTrialSchema = z.object({
  trial_id: z.string(),
  /** The task the trial ran: a root or a child. */
  node: z.string(),
  /** The root task the node descends from. */
  task: z.string(),
  depth: z.number().int().min(0),
  variants: z.array(z.enum(VARIANTS)).min(1),
  attempt: z.number().int().min(1),
  outcome: z.enum(OUTCOMES),
  reward: z.number().min(0).max(1).nullable(),
  passed: z.boolean(),
  turns: z.number().int().min(0),
  tool_calls: z.number().int().min(0).nullable(),
  agent_sec: z.number().min(0),
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
});

/** The result per variant and depth, over every task. */
export const experimentCellSchema = z.object({
  variant: z.enum(VARIANTS),
  depth: z.number().int().min(0),
  /** Scored trials (infrastructure failures left out, as in `longhaul report`). */
  n: z.number().int().min(0),
  passes: z.number().int().min(0),
  /** passes / n; null when n is 0. */
  success_rate: z.number().min(0).max(1).nullable(),
  /** Mean R, a failed grading counted as 0; null when n is 0. */
  mean_reward: z.number().min(0).max(1).nullable(),
  mean_turns: z.number().min(0).nullable(),
  /** Over the trials with a trajectory; null when none had one. */
  mean_tool_calls: z.number().min(0).nullable(),
  /** Tasks without an approved child at this depth (no trial for them here). */
  missing: z.array(z.string()),
});

/** experiment.json, written by `longhaul scale experiment` (docs/scale.md). */
export const experimentSchema = z.object({
  format: z.literal("longhaul-res-experiment"),
  version: z.literal(1),
  created_at: z.string(),
  agent: z.string(),
  model: z.string().nullable(),
  attempts: z.number().int().min(1),
  depths: z.array(z.number().int().min(0)),
  variants: z.array(z.enum(VARIANTS)).min(1),
  seed: z.number().int().min(0),
  steps_per_level: z.number().int().min(1),
  /** The pass threshold success is measured at (the analysis pass threshold). */
  threshold: z.number().min(0).max(1),
  tasks: z.array(z.object({ name: z.string(), path: z.string() })),
  job: z.object({ id: z.string(), jobs_dir: z.string() }),
  lineages: z.array(experimentLineageSchema),
  cells: z.array(experimentCellSchema),
  trials: z.array(experimentTrialSchema),
});
export type Experiment = z.infer<typeof experimentSchema>;
export type ExperimentCell = z.infer<typeof experimentCellSchema>;
export type ExperimentTrial = z.infer<typeof experimentTrialSchema>;
export type ExperimentLineage = z.infer<typeof experimentLineageSchema>;
