import type { Outcome, SubtaskKind } from "../core/trial-result.js";
import type { Estimate, Rate } from "./stats.js";

/**
 * The fields of a trial that analysis reads. A stored TrialResult satisfies it, and so do rows
 * read from other harnesses' published results, so both go through the same code.
 */
export interface AnalysisTrial {
  task: { name: string; category: string };
  agent: string;
  model: string | null;
  attempt: number;
  outcome: Outcome;
  self_terminated: boolean;
  reward: number | null;
  subtasks: readonly { id: string; weight: number; kind?: SubtaskKind; score: number }[];
  usage: { input_tokens: number; output_tokens: number; cost_usd: number; turns: number };
}

export const GROUP_DIMS = ["agent", "model", "category", "task"] as const;
export type GroupDim = (typeof GROUP_DIMS)[number];
export type GroupKey = Partial<Record<GroupDim, string>>;

export const LEVELS = ["overall", "group", "category", "task"] as const;
export type Level = (typeof LEVELS)[number];

/** Thresholds on R; fixed so numbers stay comparable across reports. */
export const THRESHOLDS = { pass: 0.95, perfect: 1, nearMiss: 0.75 } as const;

export interface KPoint {
  k: number;
  /** Mean over the tasks with at least k scored attempts. */
  value: number;
  tasks: number;
}

export interface UsageMetrics {
  meanTurns: number | null;
  meanTokens: number | null;
  meanCost: number | null;
  totalCost: number | null;
  costPerResolved: number | null;
}

export interface GroupMetrics {
  level: Level;
  key: GroupKey;
  /** The label of the enclosing groupBy group (equal to `label` at the group level). */
  groupLabel: string;
  label: string;
  /** Every trial, excluded ones included. */
  trials: number;
  /** Trials that count in rates: not grading_error / infra_error, and R known. */
  scored: number;
  outcomes: Record<Outcome, number>;
  pass095: Rate;
  pass100: Rate;
  meanReward: Estimate;
  /** Scored trials per 0.05-wide R bin (the last bin holds R = 1); group and overall levels only. */
  rewardHistogram: number[] | null;
  passAtK: KPoint[];
  passHatK: KPoint[];
  nearMiss: Rate | null;
  falseFinish: Rate | null;
  falseFinishNear: Rate | null;
  timeoutShare: Rate | null;
  usage: UsageMetrics;
}

export interface SubtaskMetrics {
  key: GroupKey;
  groupLabel: string;
  task: string;
  subtask: string;
  weight: number;
  kind: SubtaskKind | null;
  /** Scored trials that reported this subtask. */
  n: number;
  meanScore: number | null;
  /** Subtask score ≥ 0.95. */
  solved: Rate;
}

export interface Summary {
  schema: "longhaul.summary/1";
  source: "trials" | "published";
  seed: number;
  bootstrapSamples: number;
  groupBy: GroupDim[];
  thresholds: typeof THRESHOLDS;
  overall: GroupMetrics;
  groups: GroupMetrics[];
  byCategory: GroupMetrics[];
  byTask: GroupMetrics[];
  bySubtask: SubtaskMetrics[];
  /** Spearman ρ across groups between Pass@1 (R ≥ 0.95) and mean R. */
  correlation: { rho: number | null; n: number };
  /** Labels of groups on the cost–pass Pareto frontier, cheapest first. */
  frontier: string[];
}
