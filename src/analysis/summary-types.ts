import type { Continuation, Outcome, SubtaskKind, WorldCce } from "../core/trial-result.js";
import type { WorldChat } from "../core/world-chat.js";
import type { ContinuationRow } from "./continuation.js";
import type { HiddenCaseMismatch } from "./hidden-cases.js";
import type { RankAgreement, RankComparison } from "./rank-agreement.js";
import type { RecoveredRow } from "./recover-counts.js";
import type { Estimate, Rate } from "./stats.js";
import type { WorldCceSummary } from "./world-cce.js";
import type { WorldChatSummary } from "./world-chat.js";
import type { WorldSeedRow } from "./world-seeds.js";

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
  usage: {
    input_tokens: number;
    output_tokens: number;
    cost_usd: number;
    turns: number;
    /** False when the model had no price, so cost_usd is not a real cost (absent: known). */
    cost_known?: boolean;
  };
  /** The job the trial belongs to; hidden-case checks compare trials within one job. */
  job_id?: string;
  /** The hidden stress seed; equal (task, attempt) in one job share it. */
  seed?: number;
  /** Digest of the hidden stress inputs, null when the verifier records none. */
  stress_digest?: string | null;
  /** Seconds of budget left when the agent stopped on its own. */
  budget_left_sec?: number | null;
  /**
   * A world trial's verdict: its pass is the task's success condition (SR), not R ≥ 0.95, since
   * R is the share of checkpoints (PSR). Absent or null for a terminal trial.
   */
  world?: {
    success: boolean;
    /** The modifiers and baselines the trial played under (`no-comm`, `merged`, …); absent: none. */
    modifiers?: readonly string[] | undefined;
    /** Causal contribution (CCE, PAC); absent when not traced. */
    cce?: WorldCce | undefined;
    /** Chat analysis (message counts, error types); absent when not analysed. */
    chat?: WorldChat | undefined;
  } | null;
  /** Continue-until-timeout mode's record (run --until-timeout); absent or null otherwise. */
  continuation?: Continuation | null;
  grading_errors?: readonly string[];
  error?: { kind: string; message: string } | null;
}

export const GROUP_DIMS = ["agent", "model", "category", "task"] as const;
export type GroupDim = (typeof GROUP_DIMS)[number];
export type GroupKey = Partial<Record<GroupDim, string>>;

export const LEVELS = ["overall", "group", "category", "task"] as const;
export type Level = (typeof LEVELS)[number];

/** Thresholds on R; fixed so numbers stay comparable across reports. */
export const THRESHOLDS = { pass: 0.95, perfect: 1, nearMiss: 0.75 } as const;

/**
 * Float noise in Σw·r/Σw must not move R across a threshold: weights 1, 2, 3 with scores 0.82,
 * 0.94, 1 give 0.9499999999999998 for an exact 0.95.
 */
export const REWARD_EPS = 1e-9;

/** R ≥ threshold, up to float noise in the weighted sum. */
export function reaches(reward: number, threshold: number): boolean {
  return reward >= threshold - REWARD_EPS;
}

export interface KPoint {
  k: number;
  /** Mean over the tasks with at least k scored attempts. */
  value: number;
  tasks: number;
}

export interface UsageMetrics {
  meanTurns: number | null;
  meanTokens: number | null;
  /** Cost fields are null when any counted trial has an unknown cost (`costUnknown` > 0). */
  meanCost: number | null;
  totalCost: number | null;
  costPerResolved: number | null;
  /** Counted trials whose model had no price: their cost is unknown, not $0. */
  costUnknown: number;
}

/** Budget left at the stop, over false finishes that recorded it. */
export interface BudgetLeft {
  n: number;
  meanSec: number | null;
  medianSec: number | null;
}

/** Grading errors in a group, with the first one's reason so a broken verifier is visible. */
export interface GradingErrorInfo {
  count: number;
  /** `grading_errors[0]`, else `error.message`, of the first grading_error trial. */
  firstReason: string | null;
  firstTask: string | null;
}

export interface GroupMetrics {
  level: Level;
  key: GroupKey;
  /** The label of the enclosing groupBy group (equal to `label` at the group level). */
  groupLabel: string;
  label: string;
  /** Every trial, excluded ones included. */
  trials: number;
  /** Trials that count in rates: every trial but infra_error (grading_error counts as R = 0). */
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
  /** LHTB's false finish: self-terminated with 0.75 ≤ R < 0.95, over self-terminated trials. */
  falseFinish: Rate | null;
  /** Self-terminated with R < 0.95 (any R), over self-terminated trials. */
  stoppedEarly: Rate | null;
  /** Budget left at the stop over false finishes; null where not computed (published rows). */
  falseFinishBudget: BudgetLeft | null;
  timeoutShare: Rate | null;
  gradingErrors: GradingErrorInfo;
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

/** The metrics of a set of trials, as summarize returns them and renderers draw them. */
export interface Summary {
  schema: "longhaul.summary/2";
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
  /**
   * Spearman ρ across groups between Pass@1 and mean R: `rho` at R ≥ 0.95, `rho100` at R = 1,
   * with the full rank agreement (ρ, τ-b, intervals) for each.
   */
  correlation: {
    rho: number | null;
    rho100: number | null;
    n: number;
    pass095VsMean: RankAgreement;
    pass100VsMean: RankAgreement;
  };
  /** (task, attempt) pairs in one job whose trials saw different hidden inputs. */
  hiddenCaseWarnings: HiddenCaseMismatch[];
  /** Published rows only: the whole counts each printed rate maps to. */
  recovered: RecoveredRow[];
  /** Continue-until-timeout mode: R at the first claimed completion vs final R, per agent × model. */
  continuation: ContinuationRow[];
  /**
   * Trials of world tasks among those summarized: for them Pass@1 is SR (the success condition)
   * and R is PSR (the weighted share of checkpoints). Absent: none.
   */
  worldTrials?: number;
  /** World trials attempt by attempt (a seed each): SR and PSR per attempt and their spread. */
  worldSeeds?: WorldSeedRow[];
  /** Causal contribution of world trials (CCE, PAC) per agent × model and per trial; absent: none traced. */
  worldCce?: WorldCceSummary;
  /** Chat analysis of world trials per agent × model and per trial; absent: none analysed. */
  worldChat?: WorldChatSummary;
  /** Rank agreement with other sources (published tables), filled by the caller that has them. */
  references: ReferenceAgreement[];
  /**
   * The stored jobs whose trials these are, as they stood when the report was made, filled by the
   * caller that read them. Absent: the trials came from elsewhere (imports, a library caller).
   */
  jobs?: ReportedJob[];
  /** Labels of groups on the cost–pass Pareto frontier, cheapest first. */
  frontier: string[];
}

/**
 * A job a report read. A job that is still running, or whose runner stopped before the end, has
 * fewer trials than planned: its numbers describe the trials finished so far, not the job.
 */
export interface ReportedJob {
  id: string;
  /** `running`, `interrupted` or `finished` (as the store shows it, see store/job-status.ts). */
  status: string;
  /** Planned trials (tasks × agents × models × attempts). */
  planned: number;
  /** Planned trials with a recorded result: the ones the numbers cover. */
  recorded: number;
  /** Planned trials with no result yet. */
  missing: number;
  /** For an interrupted job, the command that runs its missing trials; otherwise null. */
  resume: string | null;
}

/** This summary's ranking against another source's, per metric. */
export interface ReferenceAgreement {
  /** The other source, e.g. a file name. */
  reference: string;
  comparisons: RankComparison[];
}
