import type { Outcome } from "../core/trial-result.js";
import type { AnalysisTrial } from "./summary-types.js";

/** A compact way to write hand-built trials in tests and examples. */
export interface TrialSpec {
  model?: string | null;
  agent?: string;
  task?: string;
  category?: string;
  reward: number | null;
  outcome?: Outcome;
  self?: boolean;
  cost?: number;
  turns?: number;
  tokens?: number;
  attempt?: number;
  subtasks?: { id: string; weight: number; score: number }[];
  /** Budget left at a self-stop, seconds. */
  budgetLeft?: number | null;
  gradingErrors?: string[];
  errorMessage?: string;
  costKnown?: boolean;
  seed?: number;
  digest?: string | null;
  job?: string;
}

/** An AnalysisTrial from a compact spec; unspecified fields take plain defaults. */
export function makeTrial(s: TrialSpec): AnalysisTrial {
  return {
    task: { name: s.task ?? "t1", category: s.category ?? "c1" },
    agent: s.agent ?? "h",
    model: s.model === undefined ? "m" : s.model,
    attempt: s.attempt ?? 0,
    outcome: s.outcome ?? "completed",
    self_terminated: s.self ?? false,
    reward: s.reward,
    subtasks: s.subtasks ?? [],
    usage: {
      input_tokens: s.tokens ?? 0,
      output_tokens: 0,
      cost_usd: s.cost ?? 0,
      turns: s.turns ?? 0,
      ...(s.costKnown === undefined ? {} : { cost_known: s.costKnown }),
    },
    budget_left_sec: s.budgetLeft ?? null,
    grading_errors: s.gradingErrors ?? [],
    error: s.errorMessage === undefined ? null : { kind: "grading", message: s.errorMessage },
    stress_digest: s.digest ?? null,
    ...(s.seed === undefined ? {} : { seed: s.seed }),
    ...(s.job === undefined ? {} : { job_id: s.job }),
  };
}
