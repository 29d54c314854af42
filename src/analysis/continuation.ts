import type { Continuation } from "../core/trial-result.js";
import { reaches, THRESHOLDS } from "./summary-types.js";

/** The fields of a trial that the continue-until-timeout comparison reads. */
export interface ContinuationTrial {
  agent: string;
  model: string | null;
  outcome: string;
  reward: number | null;
  self_terminated: boolean;
  continuation?: Continuation | null | undefined;
}

/**
 * One agent × model in continue-until-timeout mode: what its agents had when they first claimed
 * completion, beside what they reached by their deadline. This is the cost of false finishes:
 * R at the first stop is what a normal run would have scored.
 */
export interface ContinuationRow {
  label: string;
  /** Trials that ran in the mode (infrastructure errors left out). */
  trials: number;
  /** Trials whose agent declared completion at least once. */
  stopped: number;
  selfTerminations: number;
  reentries: number;
  /** Trials sent back at least once. */
  sentBack: number;
  /** Over the trials that stopped: mean R at the first stop and mean final R (grading errors as 0). */
  meanRewardAtFirstStop: number | null;
  meanFinalReward: number | null;
  /** First stops with 0.75 ≤ R < 0.95: false finishes as the seed defines them. */
  falseFinishesAtFirstStop: number;
  /** Trials below 0.95 at the first stop that reached R ≥ 0.95 by the deadline. */
  recovered: number;
  /** Pass@1 (R ≥ 0.95) at the first stop and at the end, over the trials that stopped. */
  passAtFirstStop: number;
  passAtEnd: number;
}

export function continuationRows(trials: readonly ContinuationTrial[]): ContinuationRow[] {
  const groups = new Map<string, ContinuationTrial[]>();
  for (const t of trials) {
    if (!t.continuation || t.outcome === "infra_error") continue;
    const label = t.model === null ? t.agent : `${t.agent} ${t.model}`;
    groups.set(label, [...(groups.get(label) ?? []), t]);
  }
  const rows: ContinuationRow[] = [];
  for (const [label, list] of [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const stopped = list.filter((t) => t.continuation?.first_stop_sec != null);
    const first = stopped.map((t) => t.continuation?.reward_at_first_stop ?? 0);
    const final = stopped.map((t) => t.reward ?? 0);
    const pass = (r: number): boolean => reaches(r, THRESHOLDS.pass);
    rows.push({
      label,
      trials: list.length,
      stopped: stopped.length,
      selfTerminations: sum(list.map((t) => t.continuation?.self_terminations ?? 0)),
      reentries: sum(list.map((t) => t.continuation?.reentries ?? 0)),
      sentBack: list.filter((t) => (t.continuation?.reentries ?? 0) > 0).length,
      meanRewardAtFirstStop: mean(first),
      meanFinalReward: mean(final),
      falseFinishesAtFirstStop: first.filter((r) => reaches(r, THRESHOLDS.nearMiss) && !pass(r)).length,
      recovered: first.filter((r, i) => !pass(r) && pass(final[i] ?? 0)).length,
      passAtFirstStop: first.filter(pass).length,
      passAtEnd: final.filter(pass).length,
    });
  }
  return rows;
}

function sum(xs: number[]): number {
  return xs.reduce((s, x) => s + x, 0);
}

function mean(xs: number[]): number | null {
  return xs.length > 0 ? sum(xs) / xs.length : null;
}
