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
  const scaled = (p: WorldPredicate): WorldPredicate => scalePredicate(p, scale, goalItems, placed);
  const moved = randomSpawns(spec, world, rng.int(0, 2 ** 31 - 1));
  // Starting items the task gives (not the role kits) grow with the goals, so a variant needs
  // more work, not items that exist nowhere.
  const team = moved.team.map((m) => ({
    ...m,
    inventory: m.inventory.map((s) => ({ ...s, qty: scale(s.qty) })),
  }));
  const { reference: _dropped, ...rest } = spec;
  const maxRounds = Math.min(10_000, Math.ceil(spec.max_rounds * (1 + (factor - 1) / 2)));
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
    ],
  };
}

/** Scales every goal amount in a predicate; `fixed` names what exists once (a placed mob). */
function scalePredicate(
  p: WorldPredicate,
  scale: (q: number) => number,
  items: Set<string>,
  fixed: ReadonlySet<string>,
): WorldPredicate {
  const again = (q: WorldPredicate): WorldPredicate => scalePredicate(q, scale, items, fixed);
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
  return p;
}
