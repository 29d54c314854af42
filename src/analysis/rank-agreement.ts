import { Rng } from "../core/rng.js";
import { quantileSorted, spearman, Z95 } from "./stats.js";

/** A statistic with a 95% interval; bounds are null when there is none. */
export interface Interval {
  value: number | null;
  lo: number | null;
  hi: number | null;
}

/**
 * How far two rankings of the same items agree: Spearman ρ and Kendall τ-b, each with a seeded
 * percentile bootstrap interval (items resampled in pairs) and an analytic Fisher-z interval.
 */
export interface RankAgreement {
  /** Items ranked by both sides. */
  n: number;
  spearman: Interval;
  kendall: Interval;
  /** Fieller–Hartley–Pearson (1957) intervals on the Fisher z scale; null when n is too small. */
  analytic: { spearman: Interval; kendall: Interval };
  seed: number;
  /** Resamples drawn. */
  samples: number;
  /** Resamples where both statistics were defined (a resample of tied values has none). */
  usedSamples: number;
}

export interface RankAgreementOptions {
  seed: number;
  samples: number;
  /** Forks the generator, so each pair of rankings has its own reproducible stream. */
  label: string;
}

/** Kendall's τ-b: (concordant − discordant) / √((n₀ − n₁)(n₀ − n₂)), ties counted per side. */
export function kendallTauB(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n !== ys.length || n < 2) return null;
  let s = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < n; i++) {
    const xi = xs[i] as number;
    const yi = ys[i] as number;
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(xi - (xs[j] as number));
      const dy = Math.sign(yi - (ys[j] as number));
      if (dx === 0) tiesX++;
      if (dy === 0) tiesY++;
      s += dx * dy;
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  return denom === 0 ? null : s / denom;
}

/** Bootstrap draws are n² each for τ; above this many in total the resamples are lowered. */
const DRAW_BUDGET = 50_000_000;
const MIN_SAMPLES = 200;

export function rankAgreement(
  xs: readonly number[],
  ys: readonly number[],
  opts: RankAgreementOptions,
): RankAgreement {
  const n = Math.min(xs.length, ys.length);
  const rho = spearman(xs, ys);
  const tau = kendallTauB(xs, ys);
  const samples =
    n < 3 || opts.samples <= 0
      ? 0
      : Math.min(opts.samples, Math.max(MIN_SAMPLES, Math.floor(DRAW_BUDGET / (n * n))));
  const rhos: number[] = [];
  const taus: number[] = [];
  if (samples > 0 && rho !== null && tau !== null) {
    const rng = new Rng(opts.seed).fork(`rank:${opts.label}`);
    const bx = new Array<number>(n);
    const by = new Array<number>(n);
    for (let b = 0; b < samples; b++) {
      for (let i = 0; i < n; i++) {
        const j = Math.floor((rng.nextU32() * n) / 4294967296);
        bx[i] = xs[j] as number;
        by[i] = ys[j] as number;
      }
      const r = spearman(bx, by);
      const t = kendallTauB(bx, by);
      if (r === null || t === null) continue;
      rhos.push(r);
      taus.push(t);
    }
  }
  return {
    n,
    spearman: percentile(rho, rhos),
    kendall: percentile(tau, taus),
    analytic: { spearman: fisher(rho, n, 1.06, 3), kendall: fisher(tau, n, 0.437, 4) },
    seed: opts.seed,
    samples,
    usedSamples: rhos.length,
  };
}

function percentile(value: number | null, draws: number[]): Interval {
  // Fewer than 100 usable resamples cannot place 2.5% quantiles; say so rather than guess.
  if (value === null || draws.length < 100) return { value, lo: null, hi: null };
  const sorted = Float64Array.from(draws).sort();
  return { value, lo: quantileSorted(sorted, 0.025), hi: quantileSorted(sorted, 0.975) };
}

/** tanh(atanh(r) ± z·√(c/(n−d))): c = 1.06, d = 3 for ρ and c = 0.437, d = 4 for τ. */
function fisher(value: number | null, n: number, c: number, d: number): Interval {
  if (value === null || n <= d) return { value, lo: null, hi: null };
  const z = Math.atanh(Math.max(-1, Math.min(1, value)));
  const half = Z95 * Math.sqrt(c / (n - d));
  return { value, lo: Math.tanh(z - half), hi: Math.tanh(z + half) };
}

/** A ranking source: one value per item label. */
export type Ranking = ReadonlyMap<string, number>;

/**
 * Name under which two sources are matched: lower case, provider prefix (`openai:`) dropped, runs
 * of spaces, `_` and `-` made one `-`. "GPT-5.5", "gpt 5.5" and "openai:gpt_5.5" all match.
 */
export function matchKey(name: string): string {
  const lower = name.trim().toLowerCase();
  const i = lower.indexOf(":");
  return (i >= 0 ? lower.slice(i + 1) : lower).replace(/[\s_-]+/g, "-");
}

export interface RankComparison {
  /** What is ranked, e.g. "Pass@1 R≥0.95". */
  metric: string;
  matched: string[];
  onlyA: string[];
  onlyB: string[];
  agreement: RankAgreement;
}

/** Pairs the items of two rankings by `matchKey` and measures their agreement. */
export function compareRankings(
  metric: string,
  a: Ranking,
  b: Ranking,
  opts: RankAgreementOptions,
): RankComparison {
  const bByKey = new Map<string, number>();
  for (const [label, v] of b) bByKey.set(matchKey(label), v);
  const aKeys = new Set<string>();
  const matched: string[] = [];
  const xs: number[] = [];
  const ys: number[] = [];
  const onlyA: string[] = [];
  for (const [label, v] of a) {
    const key = matchKey(label);
    aKeys.add(key);
    const w = bByKey.get(key);
    if (w === undefined) onlyA.push(label);
    else {
      matched.push(label);
      xs.push(v);
      ys.push(w);
    }
  }
  const onlyB = [...b.keys()].filter((label) => !aKeys.has(matchKey(label)));
  return {
    metric,
    matched,
    onlyA,
    onlyB,
    agreement: rankAgreement(xs, ys, { ...opts, label: `${opts.label}:${metric}` }),
  };
}

/** The part of a summary group a ranking reads. */
interface RankedGroup {
  label: string;
  key: { model?: string };
  pass095: { p: number | null };
  pass100: { p: number | null };
  meanReward: { value: number | null };
}

const METRICS = [
  ["Pass@1 R≥0.95", (g: RankedGroup) => g.pass095.p],
  ["Pass@1 R=1", (g: RankedGroup) => g.pass100.p],
  ["mean R", (g: RankedGroup) => g.meanReward.value],
] as const;

/**
 * Rankings of a summary's groups, named by model when each model appears in one group only
 * (published tables name models, local jobs name agent / model), else by the group label.
 */
function rankingsOf(groups: readonly RankedGroup[]): Map<string, Map<string, number>> {
  const models = groups.map((g) => g.key.model);
  const byModel = models.every((m) => m !== undefined) && new Set(models).size === models.length;
  const out = new Map<string, Map<string, number>>();
  for (const [metric, get] of METRICS) {
    const m = new Map<string, number>();
    for (const g of groups) {
      const v = get(g);
      if (v !== null) m.set(byModel ? (g.key.model as string) : g.label, v);
    }
    out.set(metric, m);
  }
  return out;
}

/** Agreement of two summaries' group rankings on each metric both of them have. */
export function referenceAgreement(
  a: readonly RankedGroup[],
  b: readonly RankedGroup[],
  opts: RankAgreementOptions,
): RankComparison[] {
  const ra = rankingsOf(a);
  const rb = rankingsOf(b);
  const out: RankComparison[] = [];
  for (const [metric] of METRICS) {
    const x = ra.get(metric) ?? new Map<string, number>();
    const y = rb.get(metric) ?? new Map<string, number>();
    if (x.size === 0 || y.size === 0) continue;
    out.push(compareRankings(metric, x, y, opts));
  }
  return out;
}
