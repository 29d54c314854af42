import type { ItemDef, RecipeDef, Skill, StationKind } from "../model/schema.js";
import { TIER_LEVELS } from "./data/materials.js";

export type ItemType = ItemDef["type"];

/** Builds items and recipes from the tier × material × slot templates. */
export class ItemFactory {
  readonly items: ItemDef[] = [];
  readonly recipes: RecipeDef[] = [];

  item(
    id: string,
    type: ItemType,
    tier: number,
    opts: Partial<Omit<ItemDef, "id" | "type" | "tier" | "name">> & { name?: string } = {},
  ): string {
    const level = opts.level ?? (tier > 0 ? (TIER_LEVELS[tier - 1] ?? 1) : 1);
    const stackable = ["resource", "material", "food", "potion", "ammo", "currency", "quest"].includes(type);
    const def: ItemDef = {
      id,
      name: opts.name ?? titleCase(id),
      type,
      tier,
      level,
      stats: opts.stats ?? { attack: 0, defence: 0 },
      stackSize: opts.stackSize ?? (stackable ? 100 : 1),
      price: opts.price ?? Math.max(1, Math.round(4 * 2.2 ** tier)),
    };
    if (opts.slot !== undefined) def.slot = opts.slot;
    if (opts.levelSkill !== undefined) def.levelSkill = opts.levelSkill;
    if (opts.heal !== undefined) def.heal = opts.heal;
    if (opts.toolFor !== undefined) def.toolFor = opts.toolFor;
    this.items.push(def);
    return id;
  }

  recipe(
    skill: Skill,
    level: number,
    inputs: ReadonlyArray<readonly [string, number]>,
    output: string,
    qty = 1,
    station?: StationKind,
  ): void {
    const r: RecipeDef = {
      id: `${skill}_${output}`,
      skill,
      level,
      inputs: inputs.map(([item, n]) => ({ item, qty: n })),
      output: { item: output, qty },
      xp: 5 + level * 2,
    };
    if (station !== undefined) r.station = station;
    this.recipes.push(r);
  }
}

export function st(attack: number, defence: number): { attack: number; defence: number } {
  return { attack, defence };
}

export function titleCase(id: string): string {
  return id
    .split("_")
    .map((w) => (w.length > 0 ? (w[0] ?? "").toUpperCase() + w.slice(1) : w))
    .join(" ");
}
