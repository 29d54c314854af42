import { UserError } from "../core/errors.js";
import { cmp } from "./order.js";

/**
 * A difficulty band on the solve rate, open below and closed above: (low, high]. Open below so
 * that the default low of 0 keeps out tasks no model ever solved (the seed keeps tasks that are
 * "solvable in principle"); a task nobody solves cannot be told apart from a broken grader.
 */
export interface Band {
  low: number;
  high: number;
}

/** Solved at least once, by at most half of the scored attempts. */
export const DEFAULT_BAND: Band = { low: 0, high: 0.5 };

export function inBand(rate: number, band: Band): boolean {
  return rate > band.low && rate <= band.high;
}

/** `LOW,HIGH` with 0 ≤ LOW < HIGH ≤ 1; anything else is a UserError naming the rule. */
export function parseBand(text: string): Band {
  const parts = text.split(",").map((s) => s.trim());
  const nums = parts.map((s) => (s === "" ? Number.NaN : Number(s)));
  const [low, high] = nums;
  if (
    parts.length !== 2 ||
    low === undefined ||
    high === undefined ||
    nums.some((n) => !Number.isFinite(n))
  ) {
    throw new UserError(`--band expects LOW,HIGH (two solve rates from 0 to 1, e.g. 0,0.5), got "${text}"`);
  }
  if (low < 0 || high > 1 || low >= high) {
    throw new UserError(
      `--band needs 0 ≤ LOW < HIGH ≤ 1 (the band is LOW < solve rate ≤ HIGH), got "${text}"`,
    );
  }
  return { low, high };
}

/** What a task needs to be picked: its name, category, rank and solve rate. */
export interface PickCandidate {
  task: string;
  category: string;
  rank: number;
  solveRate: { p: number | null };
}

/** A category's share of the target. */
export interface CategoryQuota {
  category: string;
  /** Tasks of this category in the band. */
  inBand: number;
  /** Its share of the target: largest remainder of target × inBand / total. */
  quota: number;
  picked: string[];
}

/** The target pick: `picked` in rank order, with each category's quota. */
export interface TargetPick {
  target: number;
  picked: string[];
  categories: CategoryQuota[];
  /** target − picked: the band held fewer tasks than asked for. */
  shortfall: number;
}

/**
 * Picks `target` of the band's tasks, each category in proportion to its count in the band
 * (largest-remainder rounding; ties to the larger category, then by name). Within a category the
 * tasks whose solve rate is nearest the middle of the band come first, so the subset keeps away
 * from the band's edges, where one attempt more or less would move a task out.
 */
export function pickTarget(candidates: readonly PickCandidate[], band: Band, target: number): TargetPick {
  const byCat = new Map<string, PickCandidate[]>();
  for (const c of candidates) byCat.set(c.category, [...(byCat.get(c.category) ?? []), c]);
  const total = candidates.length;
  const take = Math.min(target, total);
  const cats = [...byCat.entries()].map(([category, list]) => {
    const exact = total === 0 ? 0 : (take * list.length) / total;
    return { category, list, quota: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let left = take - cats.reduce((s, c) => s + c.quota, 0);
  const order = [...cats].sort(
    (a, b) => b.remainder - a.remainder || b.list.length - a.list.length || cmp(a.category, b.category),
  );
  for (const c of order) {
    if (left === 0) break;
    c.quota++;
    left--;
  }
  const mid = (band.low + band.high) / 2;
  // Rounded so that rates equally far from the middle tie (0.2 and 0.3 around 0.25) despite float noise.
  const distance = (c: PickCandidate) => Math.round(Math.abs((c.solveRate.p ?? 0) - mid) * 1e9);
  const categories = cats
    .map(({ category, list, quota }) => {
      const chosen = [...list].sort((a, b) => distance(a) - distance(b) || a.rank - b.rank).slice(0, quota);
      return {
        category,
        inBand: list.length,
        quota,
        picked: chosen.sort((a, b) => a.rank - b.rank).map((c) => c.task),
      };
    })
    .sort((a, b) => cmp(a.category, b.category));
  const pickedSet = new Set(categories.flatMap((c) => c.picked));
  const picked = candidates.filter((c) => pickedSet.has(c.task)).map((c) => c.task);
  return { target, picked, categories, shortfall: target - picked.length };
}
