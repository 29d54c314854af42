import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { z } from "zod";
import type { CallRecord } from "../../models/index.js";

/** The agent trajectory interchange shape Harbor reads (`agent/trajectory.json`). */
export const ATIF_VERSION = "ATIF-v1.4";

const metricsSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  cached_tokens: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

export const atifStepSchema = z.object({
  step_id: z.number().int().positive(),
  timestamp: z.string(),
  source: z.enum(["system", "user", "agent"]),
  /** Agent steps only. */
  model_name: z.string().optional(),
  message: z.string(),
  tool_calls: z
    .array(
      z.object({
        tool_call_id: z.string(),
        function_name: z.string(),
        arguments: z.record(z.string(), z.unknown()),
      }),
    )
    .optional(),
  observation: z
    .object({ results: z.array(z.object({ source_call_id: z.string().optional(), content: z.string() })) })
    .optional(),
  metrics: metricsSchema.optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type AtifStep = z.infer<typeof atifStepSchema>;
export type AtifToolCall = NonNullable<AtifStep["tool_calls"]>[number];

export const trajectorySchema = z.object({
  schema_version: z.string(),
  session_id: z.string(),
  agent: z.object({ name: z.string(), version: z.string(), model_name: z.string() }),
  steps: z.array(atifStepSchema),
  final_metrics: z.object({
    total_prompt_tokens: z.number().int().nonnegative(),
    total_completion_tokens: z.number().int().nonnegative(),
    total_cached_tokens: z.number().int().nonnegative(),
    total_cost_usd: z.number().nonnegative(),
    total_steps: z.number().int().nonnegative(),
    extra: z.record(z.string(), z.unknown()).optional(),
  }),
});
/** A trial's trajectory in ATIF (`<trial>/agent/trajectory.json`): the steps `longhaul view` shows. */
export type Trajectory = z.infer<typeof trajectorySchema>;

export function stepMetrics(calls: readonly CallRecord[]): AtifStep["metrics"] {
  let p = 0;
  let c = 0;
  let k = 0;
  let usd = 0;
  let reasoning = 0;
  for (const r of calls) {
    p += r.tokens.inputTokens;
    c += r.tokens.outputTokens;
    k += r.tokens.cachedTokens;
    reasoning += r.tokens.reasoningTokens;
    usd += r.costUsd;
  }
  return {
    prompt_tokens: p,
    completion_tokens: c,
    cached_tokens: k,
    cost_usd: usd,
    extra: { reasoning_tokens: reasoning, priced: calls.every((r) => r.priced) },
  };
}

export class TrajectoryRecorder {
  readonly sessionId = randomUUID();
  private readonly steps: AtifStep[] = [];

  constructor(private readonly agent: Trajectory["agent"]) {}

  add(step: Omit<AtifStep, "step_id" | "timestamp">): void {
    this.steps.push({ step_id: this.steps.length + 1, timestamp: new Date().toISOString(), ...step });
  }

  get length(): number {
    return this.steps.length;
  }

  build(final: Trajectory["final_metrics"]): Trajectory {
    return {
      schema_version: ATIF_VERSION,
      session_id: this.sessionId,
      agent: this.agent,
      steps: this.steps,
      final_metrics: final,
    };
  }

  write(path: string, final: Trajectory["final_metrics"]): void {
    writeFileSync(path, `${JSON.stringify(this.build(final), null, 2)}\n`);
  }
}
