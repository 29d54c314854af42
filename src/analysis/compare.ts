import { UserError } from "../core/errors.js";
import { Rng } from "../core/rng.js";
import { countedReward, isPass, isPerfect, isScored } from "./group-metrics.js";
import { type HiddenCaseMismatch, hiddenCaseMismatches } from "./hidden-cases.js";
import { cmp } from "./order.js";
import { compareRankings, type RankComparison } from "./rank-agreement.js";
import { mean, quantileSorted } from "./stats.js";
import { DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_SEED } from "./summarize.js";
import { type AnalysisTrial, REWARD_EPS } from "./summary-types.js";
import { type WorldCceGroupRow, worldCceSummary } from "./world-cce.js";

/** How two sets of trials are compared: the bootstrap's seed and number of resamples. */
export interface CompareOptions {
  /** Seed of the task-level bootstrap (recorded in the result). */
  seed?: number;
  /** Resamples of the bootstrap interval. */
  bootstrapSamples?: number;
}

/** One task present in both sets: its trial counts and mean R on each side. */
export interface TaskPair {
  task: string;
  category: string;
  nA: number;
  nB: number;
  meanA: number;
  meanB: number;
  /** meanB − meanA. */
  diff: number;
}

/** The paired comparison of two sets of trials, task by task, with a bootstrap interval. */
export interface Comparison {
  schema: "longhaul.comparison/2";
  seed: number;
  bootstrapSamples: number;
  /** Tasks with scored trials in both sets, by name. */
  rows: TaskPair[];
  onlyInA: string[];
  onlyInB: string[];
  meanA: number | null;
  meanB: number | null;
  /** Mean over paired tasks of (mean R in B − mean R in A), with a paired bootstrap 95% interval. */
  meanDiff: { value: number | null; lo: number | null; hi: number | null; n: number };
  /** Paired tasks where B's mean R is higher / lower / equal. */
  better: number;
  worse: number;
  ties: number;
  /** Agreement of the two jobs' rankings of agent / model groups, per metric. */
  ranks: RankComparison[];
  /** Shared (task, attempt) pairs graded on different hidden cases; empty when they agree. */
  hiddenCases: HiddenCaseMismatch[];
  /** Causal contribution of each side's world trials, per agent / model (absent: neither side traced any). */
  worldCce?: { a: WorldCceGroupRow[]; b: WorldCceGroupRow[] };
}

/** Per agent / model label: the three metrics a ranking can be made from. */
function groupRankings(trials: readonly AnalysisTrial[]): Map<string, Map<string, number>> {
  const acc = new Map<string, { n: number; sum: number; pass: number; perfect: number }>();
  for (const t of trials) {
    if (!isScored(t)) continue;
    const label = `${t.agent} / ${t.model ?? "-"}`;
    const r = countedReward(t);
    const g = acc.get(label) ?? { n: 0, sum: 0, pass: 0, perfect: 0 };
    g.n++;
    g.sum += r;
    if (isPass(t)) g.pass++;
    if (isPerfect(t)) g.perfect++;
    acc.set(label, g);
  }
  const out = new Map<string, Map<string, number>>([
    [RANK_METRICS[0], new Map()],
    [RANK_METRICS[1], new Map()],
    [RANK_METRICS[2], new Map()],
  ]);
  for (const label of [...acc.keys()].sort(cmp)) {
    const g = acc.get(label) as { n: number; sum: number; pass: number; perfect: number };
    out.get(RANK_METRICS[0])?.set(label, g.pass / g.n);
    out.get(RANK_METRICS[1])?.set(label, g.perfect / g.n);
    out.get(RANK_METRICS[2])?.set(label, g.sum / g.n);
  }
  return out;
}

export const RANK_METRICS = ["Pass@1 R≥0.95", "Pass@1 R=1", "mean R"] as const;

function perTask(
  trials: readonly AnalysisTrial[],
): Map<string, { category: string; sum: number; n: number }> {
  const out = new Map<string, { category: string; sum: number; n: number }>();
  for (const t of trials) {
    if (!isScored(t)) continue;
    const row = out.get(t.task.name);
    const r = countedReward(t);
    if (row === undefined) out.set(t.task.name, { category: t.task.category, sum: r, n: 1 });
    else {
      row.sum += r;
      row.n++;
    }
  }
  return out;
}

/**
 * Compares two sets of trials task by task. Tasks, not trials, are resampled, so the interval
 * respects the pairing: the same task appears on both sides of every resample.
 */
export function compareJobs(
  trialsA: readonly AnalysisTrial[],
  trialsB: readonly AnalysisTrial[],
  options: CompareOptions = {},
): Comparison {
  const seed = options.seed ?? DEFAULT_SEED;
  const samples = options.bootstrapSamples ?? DEFAULT_BOOTSTRAP_SAMPLES;
  if (!Number.isInteger(seed) || seed < 0)
    throw new UserError(`seed: expected a non-negative integer, got ${seed}`);
  const a = perTask(trialsA);
  const b = perTask(trialsB);
  const rows: TaskPair[] = [];
  for (const [task, ra] of a) {
    const rb = b.get(task);
    if (rb === undefined) continue;
    const meanA = ra.sum / ra.n;
    const meanB = rb.sum / rb.n;
    // Means summed in another order differ by float noise (0.1+0.2+0.3 vs 0.3+0.2+0.1): a tie.
    const raw = meanB - meanA;
    const diff = Math.abs(raw) < REWARD_EPS ? 0 : raw;
    rows.push({ task, category: ra.category, nA: ra.n, nB: rb.n, meanA, meanB, diff });
  }
  rows.sort((x, y) => cmp(x.task, y.task));
  const diffs = rows.map((r) => r.diff);
  const value = mean(diffs);
  let lo: number | null = null;
  let hi: number | null = null;
  if (diffs.length > 1 && samples > 0) {
    const rng = new Rng(seed).fork("compare");
    const means = new Float64Array(samples);
    const n = diffs.length;
    for (let s = 0; s < samples; s++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += diffs[Math.floor((rng.nextU32() * n) / 4294967296)] as number;
      means[s] = sum / n;
    }
    means.sort();
    lo = quantileSorted(means, 0.025);
    hi = quantileSorted(means, 0.975);
  }
  return {
    schema: "longhaul.comparison/2",
    seed,
    bootstrapSamples: samples,
    rows,
    onlyInA: [...a.keys()].filter((t) => !b.has(t)).sort(cmp),
    onlyInB: [...b.keys()].filter((t) => !a.has(t)).sort(cmp),
    meanA: mean(rows.map((r) => r.meanA)),
    meanB: mean(rows.map((r) => r.meanB)),
    meanDiff: { value, lo, hi, n: diffs.length },
    better: rows.filter((r) => r.diff > 0).length,
    worse: rows.filter((r) => r.diff < 0).length,
    ties: rows.filter((r) => r.diff === 0).length,
    ranks: rankComparisons(trialsA, trialsB, seed, samples),
    hiddenCases: hiddenCaseMismatches(trialsA, trialsB),
    ...cceSides(trialsA, trialsB),
  };
}

function cceSides(a: readonly AnalysisTrial[], b: readonly AnalysisTrial[]): Pick<Comparison, "worldCce"> {
  const ca = worldCceSummary(a);
  const cb = worldCceSummary(b);
  return ca === null && cb === null ? {} : { worldCce: { a: ca?.groups ?? [], b: cb?.groups ?? [] } };
}

function rankComparisons(
  a: readonly AnalysisTrial[],
  b: readonly AnalysisTrial[],
  seed: number,
  samples: number,
): RankComparison[] {
  const ra = groupRankings(a);
  const rb = groupRankings(b);
  return RANK_METRICS.map((m) =>
    compareRankings(m, ra.get(m) ?? new Map(), rb.get(m) ?? new Map(), { seed, samples, label: "compare" }),
  );
}
