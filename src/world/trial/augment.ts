import { Rng } from "../../core/index.js";
import type { World } from "../build/world.js";
import type { WorldPredicate, WorldTaskSpec } from "../task/schema.js";
import { randomSpawns } from "./builtin-modifiers.js";

/** The quantity factors a variant draws from: every goal amount grows by one of them. */
export const AUGMENT_FACTORS = [1.5, 2, 3] as const;

/** A harder variant of a task and what was changed, in words. */
export interface TaskVariant {
  spec: WorldTaskSpec;
  changes: string[];
}

/**
 * A harder variant of a world task, drawn from `seed`: every goal quantity (held, crafted,
 * gathered, delivered, killed) times one factor, rounded up; the task's starting items that goals
 * consume scaled by the same factor (so the work grows, not the impossibility); every agent's
 * spawn moved within reach of the old one; the round budget grown by half the factor's increase.
 * The reference calls are dropped (they no longer fit): a variant is shown solvable by the
 * reference team (`world check`, `world augment`). Pure: the same task and seed give the same
 * variant.
 */
export function augmentTask(spec: WorldTaskSpec, world: World, seed: number, index = 1): TaskVariant {
  const rng = new Rng(`augment:${spec.id}:${seed}`);
  const factor = AUGMENT_FACTORS[rng.int(0, AUGMENT_FACTORS.length - 1)] ?? 2;
  const scale = (q: number): number => Math.ceil(q * factor);
  const goalItems = new Set<string>();
  // A placed mob exists once: killing it twice is impossible, not harder.
  const placed = new Set(spec.world.mobs.map((m) => m.id));
  // A deadline grows with the budget: a task that must finish in 14 of 22 rounds keeps the same
  // share of its grown budget, or its variant would ask for more work in the same time.
  const roundFactor = 1 + (factor - 1) / 2;
  const deadline = (n: number): number => Math.min(10_000, Math.ceil(n * roundFactor));
  const scaled = (p: WorldPredicate): WorldPredicate =>
    scalePredicate(p, { scale, deadline }, goalItems, placed);
  const moved = randomSpawns(spec, world, rng.int(0, 2 ** 31 - 1));
  // Starting items the task gives (not the role kits) grow with the goals, so a variant needs
  // more work, not items that exist nowhere.
  const team = moved.team.map((m) => ({
    ...m,
    inventory: m.inventory.map((s) => ({ ...s, qty: scale(s.qty) })),
  }));
  const { reference: _dropped, ...rest } = spec;
  const maxRounds = deadline(spec.max_rounds);
  const deadlines = countDeadlines(spec);
  const variant: WorldTaskSpec = {
    ...rest,
    id: `${spec.id}-v${index}`,
    variant_of: spec.id,
    max_rounds: maxRounds,
    team,
    success: scaled(spec.success),
    checkpoints: spec.checkpoints.map((c) => ({ ...c, predicate: scaled(c.predicate) })),
  };
  const moves = team.filter((m, i) => {
    const before = spec.team[i]?.spawn;
    return (
      m.spawn !== undefined && (before === undefined || before.x !== m.spawn.x || before.y !== m.spawn.y)
    );
  }).length;
  return {
    spec: variant,
    changes: [
      `goal quantities ×${factor} (${[...goalItems].sort().join(", ") || "none"})`,
      `${moves} of ${team.length} spawns moved`,
      `task items ×${factor}`,
      `max_rounds ${spec.max_rounds} → ${maxRounds}`,
      ...(deadlines > 0 ? [`${deadlines} within_rounds deadline(s) ×${roundFactor}`] : []),
    ],
  };
}

/** How a variant grows amounts (`scale`) and deadlines in rounds (`deadline`). */
interface Growth {
  scale: (q: number) => number;
  deadline: (rounds: number) => number;
}

/** The number of `within_rounds` conditions in the task's success and checkpoints. */
function countDeadlines(spec: WorldTaskSpec): number {
  const count = (p: WorldPredicate): number => {
    if ("all" in p) return p.all.reduce((n, q) => n + count(q), 0);
    if ("any" in p) return p.any.reduce((n, q) => n + count(q), 0);
    return "within_rounds" in p ? 1 : 0;
  };
  return spec.checkpoints.reduce((n, c) => n + count(c.predicate), count(spec.success));
}

/** Scales every goal amount in a predicate; `fixed` names what exists once (a placed mob). */
function scalePredicate(
  p: WorldPredicate,
  growth: Growth,
  items: Set<string>,
  fixed: ReadonlySet<string>,
): WorldPredicate {
  const { scale } = growth;
  const again = (q: WorldPredicate): WorldPredicate => scalePredicate(q, growth, items, fixed);
  const grow = (what: string, qty: number): number => {
    if (fixed.has(what)) return qty;
    items.add(what);
    return scale(qty);
  };
  if ("all" in p) return { all: p.all.map(again) };
  if ("any" in p) return { any: p.any.map(again) };
  // A negated condition is left as it is: scaling it would make it easier, not harder.
  if ("not" in p) return p;
  if ("holds" in p) return { holds: { ...p.holds, qty: grow(p.holds.item, p.holds.qty) } };
  if ("crafted" in p) return { crafted: { ...p.crafted, qty: grow(p.crafted.item, p.crafted.qty) } };
  if ("gathered" in p) return { gathered: { ...p.gathered, qty: grow(p.gathered.item, p.gathered.qty) } };
  if ("delivered" in p)
    return { delivered: { ...p.delivered, qty: grow(p.delivered.item, p.delivered.qty) } };
  if ("killed" in p) return { killed: { ...p.killed, qty: grow(p.killed.mob, p.killed.qty) } };
  if ("within_rounds" in p) return { within_rounds: growth.deadline(p.within_rounds) };
  return p;
}
