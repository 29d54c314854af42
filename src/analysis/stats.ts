import { Rng } from "../core/rng.js";

/** The two-sided 95% normal quantile, used by every interval in the reports. */
export const Z95 = 1.959963984540054;

/** A proportion with its numerator, denominator and Wilson 95% interval. */
export interface Rate {
  k: number;
  n: number;
  /** k/n, or null when n is 0 (a rate over nothing is not 0). */
  p: number | null;
  lo: number | null;
  hi: number | null;
}

/** Wilson score interval: stays inside [0, 1] and behaves at k = 0 and k = n, unlike the Wald interval. */
export function wilson(k: number, n: number, z: number = Z95): Rate {
  if (n <= 0) return { k, n, p: null, lo: null, hi: null };
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At k = 0 and k = n the bound is exactly 0 or 1; float cancellation would leave 1e-18.
  const lo = k === 0 ? 0 : Math.max(0, center - half);
  const hi = k === n ? 1 : Math.min(1, center + half);
  return { k, n, p, lo, hi };
}

/** A point estimate with an interval and the number of observations behind it. */
export interface Estimate {
  value: number | null;
  lo: number | null;
  hi: number | null;
  n: number;
  /** How the interval was made; null when there is none. */
  method: "bootstrap" | "normal" | null;
}

/**
 * Above this many observations the interval on a mean of values in [0, 1] comes from the normal
 * approximation: the bootstrap would cost samples × n draws and agree with it to about 3 decimals.
 */
export const BOOTSTRAP_MAX_N = 5000;

/** Mean with a 95% interval: seeded percentile bootstrap up to BOOTSTRAP_MAX_N, normal beyond. */
export function meanInterval(xs: ArrayLike<number>, seed: number, label: string, samples: number): Estimate {
  if (samples > 0 && xs.length > BOOTSTRAP_MAX_N) return normalMean(xs);
  return bootstrapMean(xs, seed, label, samples);
}

/** mean ± z·s/√n with the sample standard deviation, clipped to [0, 1]. */
export function normalMean(xs: ArrayLike<number>): Estimate {
  const n = xs.length;
  const m = mean(xs);
  if (m === null) return { value: null, lo: null, hi: null, n: 0, method: null };
  if (n < 2) return { value: m, lo: null, hi: null, n, method: null };
  let ss = 0;
  for (let i = 0; i < n; i++) ss += ((xs[i] as number) - m) ** 2;
  const half = Z95 * Math.sqrt(ss / (n - 1) / n);
  return { value: m, lo: Math.max(0, m - half), hi: Math.min(1, m + half), n, method: "normal" };
}

export function mean(xs: ArrayLike<number>): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i] as number;
  return s / xs.length;
}

/** Linear-interpolated quantile (Hyndman–Fan type 7) of an ascending array. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError("quantile of an empty sample");
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(n - 1, lo + 1)] as number;
  return a + (h - lo) * (b - a);
}

/**
 * Percentile bootstrap 95% interval of the mean. The generator is derived from the seed and a
 * label, so one group's interval does not change when other groups are added to the report.
 */
export function bootstrapMean(xs: ArrayLike<number>, seed: number, label: string, samples: number): Estimate {
  const n = xs.length;
  const value = mean(xs);
  if (value === null) return { value: null, lo: null, hi: null, n: 0, method: null };
  if (n === 1 || samples <= 0) return { value, lo: null, hi: null, n, method: null };
  const rng = new Rng(seed).fork(label);
  const means = new Float64Array(samples);
  for (let b = 0; b < samples; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += xs[Math.floor((rng.nextU32() * n) / 4294967296)] as number;
    means[b] = s / n;
  }
  means.sort();
  return {
    value,
    lo: quantileSorted(means, 0.025),
    hi: quantileSorted(means, 0.975),
    n,
    method: "bootstrap",
  };
}

/** Ranks 1..n with tied values sharing the mean of the ranks they span. */
export function averageRanks(xs: readonly number[]): number[] {
  const order = xs.map((_, i) => i).sort((a, b) => (xs[a] as number) - (xs[b] as number));
  const ranks = new Array<number>(xs.length).fill(0);
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && xs[order[j + 1] as number] === xs[order[i] as number]) j++;
    const r = (i + j) / 2 + 1;
    for (let t = i; t <= j; t++) ranks[order[t] as number] = r;
    i = j + 1;
  }
  return ranks;
}

export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n !== ys.length || n < 2) return null;
  const mx = mean(xs) as number;
  const my = mean(ys) as number;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** Spearman's ρ: Pearson correlation of average ranks, so ties are handled exactly. */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length || xs.length < 2) return null;
  return pearson(averageRanks(xs), averageRanks(ys));
}

/**
 * Unbiased pass@k for one task with n attempts of which c passed: 1 − C(n−c, k)/C(n, k),
 * computed as a product so large n never overflows.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass@${k} needs at least ${k} attempts, got ${n}`);
  if (n - c < k) return 1;
  let q = 1;
  for (let i = 0; i < k; i++) q *= (n - c - i) / (n - i);
  return 1 - q;
}

/** pass^k for one task: the chance that k attempts drawn without replacement all pass, C(c, k)/C(n, k). */
export function passHatK(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass^${k} needs at least ${k} attempts, got ${n}`);
  if (c < k) return 0;
  let q = 1;
  for (let i = 0; i < k; i++) q *= (c - i) / (n - i);
  return q;
}

export interface ParetoPoint {
  id: string;
  cost: number;
  pass: number;
}

/**
 * Ids of the points no other point dominates (cost ≤ and pass ≥, one of them strictly).
 * Sorting by cost then sweeping keeps it O(n log n). Exact duplicates are all kept.
 */
export function paretoFrontier(points: readonly ParetoPoint[]): string[] {
  const sorted = [...points].sort((a, b) => a.cost - b.cost || b.pass - a.pass);
  const out: string[] = [];
  let best = Number.NEGATIVE_INFINITY;
  let last: ParetoPoint | undefined;
  for (const p of sorted) {
    if (p.pass > best) {
      out.push(p.id);
      best = p.pass;
      last = p;
    } else if (last !== undefined && p.pass === last.pass && p.cost === last.cost) {
      out.push(p.id);
    }
  }
  return out;
}
