import type { Rng } from "../../core/rng.js";
import type { ChannelStepName } from "./steps.js";

/**
 * How many times longer a line gets under each line step: base64 writes 4 bytes for 3, hex 2
 * digits a byte; reverse and rotate keep a line's length. Steps of other kinds never apply to a
 * stream and count as 1.
 */
const LINE_GROWTH: Readonly<Partial<Record<ChannelStepName, number>>> = {
  "line-base64": 4 / 3,
  "line-hex": 2,
};

/**
 * The most a stream channel may lengthen a line. Every step of every episode sends each line
 * through the filter and the candidate's decoder, so a channel that only ever expands lines makes
 * deep children slow to verify and to play (at depth 10, 4 hex and 9 base64 steps turned a
 * 110-byte observation into 18.7 KB). Past this budget the planner draws length-keeping steps.
 */
export const LINE_GROWTH_BUDGET = 16;

/**
 * Held back until the budget is reached: drawing it earlier would change which steps every
 * seeded stream lineage below the budget gets, and those lineages are pinned and measured.
 */
export const HELD_BACK: readonly ChannelStepName[] = ["line-rotate"];

export function stepGrowth(name: ChannelStepName): number {
  return LINE_GROWTH[name] ?? 1;
}

/** The factor by which these steps, applied in order, lengthen a line (its upper bound for base64's padding aside). */
export function lineGrowth(names: readonly ChannelStepName[]): number {
  return names.reduce((g, n) => g * stepGrowth(n), 1);
}

/**
 * `names` (drawn for one level) with every step that would take the channel past the budget
 * replaced by a length-keeping one of `pool`, drawn from `rng` only when a replacement is
 * needed (so a level within the budget is exactly what was drawn). In a level that needed a
 * replacement, a length-keeping step never repeats the one before it (two reverses cancel, two
 * rotations are one) when the pool has another.
 */
export function withinGrowthBudget(
  parent: readonly ChannelStepName[],
  names: readonly ChannelStepName[],
  pool: readonly ChannelStepName[],
  avoid: ReadonlySet<ChannelStepName>,
  rng: Rng,
): ChannelStepName[] {
  let growth = lineGrowth(parent);
  if (growth * lineGrowth(names) <= LINE_GROWTH_BUDGET) return [...names];
  const keep = pool.filter((n) => stepGrowth(n) === 1);
  if (keep.length === 0) return [...names];
  const fresh = keep.filter((n) => !avoid.has(n));
  const order = [...rng.shuffle(fresh.length > 0 ? fresh : keep)];
  let prev = parent.at(-1);
  const out: ChannelStepName[] = [];
  for (const n of names) {
    let next = n;
    if (growth * stepGrowth(n) > LINE_GROWTH_BUDGET) next = order.shift() ?? rng.pick(keep);
    // Within a level that needed a replacement, no length-keeping step repeats the one before
    // it: two reverses cancel, and two rotations are one.
    if (next === prev && stepGrowth(next) === 1) next = keep.find((k) => k !== prev) ?? next;
    growth *= stepGrowth(next);
    out.push(next);
    prev = next;
  }
  return out;
}
