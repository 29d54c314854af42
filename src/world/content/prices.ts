import type { NpcDef, RecipeDef } from "../model/schema.js";

/**
 * The cheapest coins-only way to get one unit of each item: buy it from a shop, get it from a
 * trader for something bought, or craft it from bought inputs. Items missing from the map cannot
 * be had for coins at all (they must be gathered, looted or earned). Stock limits are ignored, so
 * this is a lower bound on what any sequence of purchases and crafts pays per unit.
 */
export function purchaseCosts(pack: {
  readonly npcs: readonly NpcDef[];
  readonly recipes: readonly RecipeDef[];
}): Map<string, number> {
  const cost = new Map<string, number>([["coins", 1]]);
  const lower = (item: string, c: number): boolean => {
    const known = cost.get(item);
    if (known !== undefined && known <= c + 1e-9) return false;
    cost.set(item, c);
    return true;
  };
  for (const n of pack.npcs) for (const s of n.store ?? []) lower(s.item, s.price);
  // Relaxation until nothing gets cheaper; recipes and exchanges are few, and costs only fall.
  for (let round = 0, changed = true; changed && round < 100; round++) {
    changed = false;
    for (const n of pack.npcs) {
      for (const t of n.trades ?? []) {
        const give = cost.get(t.give.item);
        if (give !== undefined && lower(t.get.item, (give * t.give.qty) / t.get.qty)) changed = true;
      }
    }
    for (const r of pack.recipes) {
      let total = 0;
      for (const input of r.inputs) {
        const c = cost.get(input.item);
        if (c === undefined) {
          total = Number.POSITIVE_INFINITY;
          break;
        }
        total += c * input.qty;
      }
      if (Number.isFinite(total) && lower(r.output.item, total / r.output.qty)) changed = true;
    }
  }
  return cost;
}

/** The most a shop may pay for an item without letting buy → craft → sell make money. */
export function maxBuyBack(costs: ReadonlyMap<string, number>, item: string, price: number): number {
  return Math.floor(Math.min(price / 2, costs.get(item) ?? Number.POSITIVE_INFINITY) + 1e-9);
}
