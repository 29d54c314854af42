import { UserError } from "../core/errors.js";
import { Rng } from "../core/rng.js";
import { isScored } from "./group-metrics.js";
import { mean, quantileSorted } from "./stats.js";
import { cmp, DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_SEED } from "./summarize.js";
import type { AnalysisTrial } from "./summary-types.js";

export interface CompareOptions {
  seed?: number;
  bootstrapSamples?: number;
}

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

export interface Comparison {
  schema: "longhaul.comparison/1";
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
}

function perTask(
  trials: readonly AnalysisTrial[],
): Map<string, { category: string; sum: number; n: number }> {
  const out = new Map<string, { category: string; sum: number; n: number }>();
  for (const t of trials) {
    if (!isScored(t)) continue;
    const row = out.get(t.task.name);
    if (row === undefined) out.set(t.task.name, { category: t.task.category, sum: t.reward as number, n: 1 });
    else {
      row.sum += t.reward as number;
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
    rows.push({ task, category: ra.category, nA: ra.n, nB: rb.n, meanA, meanB, diff: meanB - meanA });
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
    schema: "longhaul.comparison/1",
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
  };
}
