import { z } from "zod";

/**
 * What the adaptive stop's target agent did on one approved child (lineage node field `target`):
 * every attempt's reward and outcome, whether any attempt passed, and what the evaluation cost.
 * Kept apart from the node's `seconds` and `tokens`, which are the cost of constructing the child.
 */
export const TargetRecordSchema = z.object({
  agent: z.string(),
  model: z.string().nullable(),
  attempts: z.number().int().min(1),
  /** R of each attempt, in order; null when grading failed. */
  rewards: z.array(z.number().min(0).max(1).nullable()),
  outcomes: z.array(z.string()),
  /** The pass threshold an attempt's R had to reach (the analysis pass threshold). */
  threshold: z.number().min(0).max(1),
  passes: z.number().int().min(0),
  /** At least one attempt passed; a recursive chain stops below a child where none did. */
  passed: z.boolean(),
  /** Wall time of the evaluation (image preparation and every attempt). */
  seconds: z.number().min(0),
  /** Model tokens the target agent spent over its attempts (0 for agents without a model). */
  tokens: z.object({ input: z.number().int().min(0), output: z.number().int().min(0) }),
});
export type TargetRecord = z.infer<typeof TargetRecordSchema>;
