import { OUTCOMES, type Outcome } from "../core/trial-result.js";
import { mean, meanInterval, passAtK, passHatK, quantileSorted, wilson } from "./stats.js";
import {
  type AnalysisTrial,
  type BudgetLeft,
  type GroupKey,
  type GroupMetrics,
  type KPoint,
  type Level,
  REWARD_EPS,
  THRESHOLDS,
} from "./summary-types.js";

export const HISTOGRAM_BINS = 20;
/** pass@k is reported for k = 1 … this (or the most attempts any task has, if fewer). */
export const MAX_K = 10;

/**
 * Every trial but an infrastructure failure counts in rates. A grading_error counts as R = 0:
 * a verifier that cannot grade the agent's work is the task's or agent's problem, and dropping
 * those trials would let a broken contract raise the pass rate.
 */
export function isScored(t: AnalysisTrial): boolean {
  return t.outcome !== "infra_error";
}

/**
 * R as counted: a grading_error is R = 0, even when an imported row carries a reward beside it
 * (the verifier could not grade, so no number it left stands).
 */
export function countedReward(t: AnalysisTrial): number {
  return t.outcome === "grading_error" ? 0 : (t.reward ?? 0);
}

/** The cost of a trial is unknown when its model had no price (flagged, or tokens at $0). */
export function costUnknown(t: AnalysisTrial): boolean {
  if (t.usage.cost_known !== undefined) return !t.usage.cost_known;
  // Results written before the flag existed: tokens spent at $0 by a named model means unpriced.
  return t.model !== null && t.usage.cost_usd === 0 && t.usage.input_tokens + t.usage.output_tokens > 0;
}

/** The reason a grading_error trial gives: its first grading error, else its error message. */
export function gradingReason(t: AnalysisTrial): string | null {
  return t.grading_errors?.[0] ?? t.error?.message ?? null;
}

// Local copies, with float noise allowed for (summary-types' reaches): these are read once per
// trial per level, in the hottest loop of a report.
const PASS = THRESHOLDS.pass - REWARD_EPS;
const PERFECT = THRESHOLDS.perfect - REWARD_EPS;
const NEAR = THRESHOLDS.nearMiss - REWARD_EPS;

/**
 * Whether a scored trial passes: R ≥ 0.95 — or, for a world trial (R is its PSR), whether the
 * task's success condition held (SR).
 */
export function isPass(t: AnalysisTrial): boolean {
  return t.world ? t.world.success : countedReward(t) >= PASS;
}

/** R = 1.0; a world trial also needs its success condition. */
export function isPerfect(t: AnalysisTrial): boolean {
  return countedReward(t) >= PERFECT && (t.world ? t.world.success : true);
}

export function emptyOutcomes(): Record<Outcome, number> {
  const out = {} as Record<Outcome, number>;
  for (const o of OUTCOMES) out[o] = 0;
  return out;
}

export interface GroupContext {
  level: Level;
  key: GroupKey;
  label: string;
  groupLabel: string;
  seed: number;
  /** Bootstrap resamples for the interval on mean R; 0 gives the mean without an interval. */
  samples: number;
}

/**
 * Additive counts for one group. Everything but the interval on mean R is a sum, so task-level
 * accumulators are merged upward into category, group and overall rows without re-reading trials.
 */
export interface GroupAcc {
  trials: number;
  outcomes: Record<Outcome, number>;
  scored: number;
  rewardSum: number;
  /** Per-trial rewards, kept only where an interval is computed. */
  rewards: number[];
  pass: number;
  perfect: number;
  near: number;
  selfTerm: number;
  falseFinish: number;
  stoppedEarly: number;
  /** Budget left at each false finish that recorded it. */
  falseFinishBudget: number[];
  gradingErrors: number;
  firstGrading: { reason: string | null; task: string } | null;
  costUnknown: number;
  unresolved: number;
  unresolvedTimeout: number;
  turns: number;
  tokens: number;
  cost: number;
  histogram: number[];
  /** Per (agent, model, task): scored attempts and passes, for pass@k. */
  perTask: Map<string, { n: number; c: number }>;
}

export function newAcc(): GroupAcc {
  return {
    trials: 0,
    outcomes: emptyOutcomes(),
    scored: 0,
    rewardSum: 0,
    rewards: [],
    pass: 0,
    perfect: 0,
    near: 0,
    selfTerm: 0,
    falseFinish: 0,
    stoppedEarly: 0,
    falseFinishBudget: [],
    gradingErrors: 0,
    firstGrading: null,
    costUnknown: 0,
    unresolved: 0,
    unresolvedTimeout: 0,
    turns: 0,
    tokens: 0,
    cost: 0,
    histogram: new Array<number>(HISTOGRAM_BINS).fill(0),
    perTask: new Map(),
  };
}

export function addTrial(acc: GroupAcc, t: AnalysisTrial): void {
  acc.trials++;
  acc.outcomes[t.outcome] += 1;
  if (!isScored(t)) return;
  const r = countedReward(t);
  if (t.outcome === "grading_error") {
    acc.gradingErrors++;
    acc.firstGrading ??= { reason: gradingReason(t), task: t.task.name };
  }
  acc.scored++;
  acc.rewardSum += r;
  acc.rewards.push(r);
  const passed = isPass(t);
  if (passed) acc.pass++;
  if (isPerfect(t)) acc.perfect++;
  if (r >= NEAR && !passed) acc.near++;
  if (t.self_terminated) {
    acc.selfTerm++;
    if (!passed) {
      acc.stoppedEarly++;
      if (r >= NEAR) {
        acc.falseFinish++;
        const left = t.budget_left_sec;
        if (left !== undefined && left !== null) acc.falseFinishBudget.push(left);
      }
    }
  }
  if (!passed) {
    acc.unresolved++;
    if (t.outcome === "agent_timeout") acc.unresolvedTimeout++;
  }
  acc.turns += t.usage.turns;
  acc.tokens += t.usage.input_tokens + t.usage.output_tokens;
  acc.cost += t.usage.cost_usd;
  if (costUnknown(t)) acc.costUnknown++;
  const bin = Math.min(HISTOGRAM_BINS - 1, Math.floor(r * HISTOGRAM_BINS));
  acc.histogram[bin] = (acc.histogram[bin] ?? 0) + 1;
  // Attempts are one system's (agent and model) tries at one task: a row that spans several
  // systems (overall) must not pool their trials as if they were one system's attempts.
  const key = `${t.agent}\u0000${t.model ?? ""}\u0000${t.task.name}`;
  const tc = acc.perTask.get(key);
  if (tc === undefined) acc.perTask.set(key, { n: 1, c: passed ? 1 : 0 });
  else {
    tc.n++;
    if (passed) tc.c++;
  }
}

const SUMMED = [
  "trials",
  "scored",
  "rewardSum",
  "pass",
  "perfect",
  "near",
  "selfTerm",
  "falseFinish",
  "stoppedEarly",
  "gradingErrors",
  "costUnknown",
  "unresolved",
  "unresolvedTimeout",
  "turns",
  "tokens",
  "cost",
] as const;

/** Adds `from` into `into`; per-trial rewards are copied only when `withRewards`. */
export function mergeAcc(into: GroupAcc, from: GroupAcc, withRewards: boolean): void {
  for (const f of SUMMED) into[f] += from[f];
  for (const o of OUTCOMES) into.outcomes[o] += from.outcomes[o];
  for (let i = 0; i < HISTOGRAM_BINS; i++)
    into.histogram[i] = (into.histogram[i] ?? 0) + (from.histogram[i] ?? 0);
  if (withRewards) for (const r of from.rewards) into.rewards.push(r);
  for (const b of from.falseFinishBudget) into.falseFinishBudget.push(b);
  into.firstGrading ??= from.firstGrading;
  for (const [task, tc] of from.perTask) {
    const have = into.perTask.get(task);
    if (have === undefined) into.perTask.set(task, { n: tc.n, c: tc.c });
    else {
      have.n += tc.n;
      have.c += tc.c;
    }
  }
}

export function computeGroupMetrics(trials: readonly AnalysisTrial[], ctx: GroupContext): GroupMetrics {
  const acc = newAcc();
  for (const t of trials) addTrial(acc, t);
  return finishGroup(acc, ctx);
}

export function finishGroup(acc: GroupAcc, ctx: GroupContext): GroupMetrics {
  const n = acc.scored;
  const { atK, hatK } = passKCurves([...acc.perTask.values()]);
  const withHistogram = ctx.level === "group" || ctx.level === "overall";
  const known = acc.costUnknown === 0;
  const meanReward =
    ctx.samples > 0
      ? meanInterval(acc.rewards, ctx.seed, `${ctx.level}:${ctx.label}`, ctx.samples)
      : { value: n > 0 ? acc.rewardSum / n : null, lo: null, hi: null, n, method: null };
  return {
    level: ctx.level,
    key: ctx.key,
    groupLabel: ctx.groupLabel,
    label: ctx.label,
    trials: acc.trials,
    scored: n,
    outcomes: acc.outcomes,
    pass095: wilson(acc.pass, n),
    pass100: wilson(acc.perfect, n),
    meanReward,
    rewardHistogram: withHistogram ? acc.histogram : null,
    passAtK: atK,
    passHatK: hatK,
    nearMiss: wilson(acc.near, n),
    falseFinish: wilson(acc.falseFinish, acc.selfTerm),
    stoppedEarly: wilson(acc.stoppedEarly, acc.selfTerm),
    falseFinishBudget: budgetLeft(acc.falseFinishBudget),
    timeoutShare: wilson(acc.unresolvedTimeout, acc.unresolved),
    gradingErrors: {
      count: acc.gradingErrors,
      firstReason: acc.firstGrading?.reason ?? null,
      firstTask: acc.firstGrading?.task ?? null,
    },
    usage: {
      meanTurns: n > 0 ? acc.turns / n : null,
      meanTokens: n > 0 ? acc.tokens / n : null,
      // A sum that includes unpriced trials is not a cost; no number beats a wrong one.
      meanCost: n > 0 && known ? acc.cost / n : null,
      totalCost: known ? acc.cost : null,
      costPerResolved: acc.pass > 0 && known ? acc.cost / acc.pass : null,
      costUnknown: acc.costUnknown,
    },
  };
}

export function budgetLeft(values: readonly number[]): BudgetLeft {
  if (values.length === 0) return { n: 0, meanSec: null, medianSec: null };
  const sorted = Float64Array.from(values).sort();
  return { n: values.length, meanSec: mean(sorted), medianSec: quantileSorted(sorted, 0.5) };
}

/** pass@k and pass^k averaged over the tasks that have at least k scored attempts. */
export function passKCurves(tasks: readonly { n: number; c: number }[]): { atK: KPoint[]; hatK: KPoint[] } {
  let maxN = 0;
  for (const t of tasks) maxN = Math.max(maxN, t.n);
  const atK: KPoint[] = [];
  const hatK: KPoint[] = [];
  for (let k = 1; k <= Math.min(MAX_K, maxN); k++) {
    let sumAt = 0;
    let sumHat = 0;
    let count = 0;
    for (const t of tasks) {
      if (t.n < k) continue;
      sumAt += passAtK(t.n, t.c, k);
      sumHat += passHatK(t.n, t.c, k);
      count++;
    }
    atK.push({ k, value: sumAt / count, tasks: count });
    hatK.push({ k, value: sumHat / count, tasks: count });
  }
  return { atK, hatK };
}
