import type { Skill, Slot } from "../model/schema.js";
import { BAR_INPUTS, ESSENCES, GEMS, LEATHER_PIECES, SMITHED, TIER_LEVELS, WOODS } from "./data/materials.js";
import { type ItemFactory, st } from "./item-factory.js";

/** Tiered gear: metal bars and smithed pieces, wood goods, leather armour, robes. */
export function metalTier(f: ItemFactory, metal: string, t: number): void {
  const level = TIER_LEVELS[t - 1] ?? 1;
  const bar = f.item(`${metal}_bar`, "material", t, { level });
  f.recipe("smelting", level, BAR_INPUTS[t - 1] ?? [], bar, 1, "furnace");
  SMITHED.forEach(([suffix, slot, bars, att, def, skill], k) => {
    const id = `${metal}_${suffix}`;
    const gear = slot !== null;
    const tool = suffix === "axe" || suffix === "pickaxe";
    f.item(id, gear ? (slot === "weapon" ? "weapon" : "armour") : tool ? "tool" : "ammo", t, {
      level,
      ...(slot !== null ? { slot: slot as Slot } : {}),
      ...(suffix === "axe" ? { slot: "weapon" as Slot } : {}),
      levelSkill: skill as Skill,
      stats: st(att * t, def * t),
      ...(tool ? { toolFor: suffix === "axe" ? ("woodcutting" as Skill) : ("mining" as Skill) } : {}),
      price: Math.round(bars * 6 * 2.2 ** t),
    });
    const qty = suffix === "arrowheads" ? 15 : 1;
    f.recipe("smithing", Math.min(99, level + (k % 5)), [[bar, bars]], id, qty, "anvil");
  });
  const arrow = f.item(`${metal}_arrow`, "ammo", t, { level, stats: st(t, 0) });
  f.recipe(
    "fletching",
    level,
    [
      [`${WOODS[t - 1]}_shaft`, 15],
      [`${metal}_arrowheads`, 15],
      ["feather", 15],
    ],
    arrow,
    15,
  );
}

export function woodTier(f: ItemFactory, wood: string, t: number): void {
  const level = TIER_LEVELS[t - 1] ?? 1;
  const log = f.item(`${wood}_log`, "resource", t, { level });
  const plank = f.item(`${wood}_plank`, "material", t, { level });
  f.recipe("crafting", level, [[log, 1]], plank, 1, "workbench");
  const shaft = f.item(`${wood}_shaft`, "material", t, { level });
  f.recipe("fletching", level, [[log, 1]], shaft, 15);
  const bowStats = { level, slot: "weapon" as Slot, levelSkill: "attack" as Skill };
  f.item(`${wood}_shortbow`, "weapon", t, { ...bowStats, stats: st(4 * t, 0) });
  f.recipe(
    "fletching",
    level + 2,
    [
      [log, 1],
      ["bowstring", 1],
    ],
    `${wood}_shortbow`,
  );
  f.item(`${wood}_longbow`, "weapon", t, { ...bowStats, stats: st(6 * t, 0) });
  f.recipe(
    "fletching",
    level + 5,
    [
      [log, 2],
      ["bowstring", 1],
    ],
    `${wood}_longbow`,
  );
  const gem = GEMS[t - 1] ?? "opal";
  f.item(`${wood}_staff`, "weapon", t, { ...bowStats, stats: st(5 * t, t) });
  f.recipe(
    "crafting",
    level + 3,
    [
      [shaft, 2],
      [gem, 1],
    ],
    `${wood}_staff`,
    1,
    "workbench",
  );
  f.item(`${wood}_battlestaff`, "weapon", t, { ...bowStats, stats: st(7 * t, 2 * t) });
  f.recipe(
    "alchemy",
    level + 6,
    [
      [`${wood}_staff`, 1],
      [`${ESSENCES[t - 1]}_essence`, 3],
    ],
    `${wood}_battlestaff`,
  );
  f.item(`${wood}_shield`, "armour", t, {
    level,
    slot: "shield",
    levelSkill: "defence",
    stats: st(0, 3 * t),
  });
  f.recipe("crafting", level + 4, [[plank, 3]], `${wood}_shield`, 1, "workbench");
}

export function leatherTier(f: ItemFactory, hide: string, t: number): void {
  const level = TIER_LEVELS[t - 1] ?? 1;
  f.item(`${hide}_hide`, "resource", t, { level });
  const leather = f.item(`${hide}_leather`, "material", t, { level });
  f.recipe("crafting", level, [[`${hide}_hide`, 1]], leather, 1, "workbench");
  for (const [suffix, slot, n, att, def] of LEATHER_PIECES) {
    const id = `${hide}_leather_${suffix}`;
    f.item(id, "armour", t, {
      level,
      slot: slot as Slot,
      levelSkill: "defence",
      stats: st(att * t, def * t),
    });
    f.recipe(
      "crafting",
      level + n,
      [
        [leather, n],
        ["thread", 1],
      ],
      id,
    );
  }
}

export function robeTier(f: ItemFactory, ess: string, t: number): void {
  const level = TIER_LEVELS[t - 1] ?? 1;
  f.item(`${ess}_essence`, "resource", t, { level });
  const pieces: ReadonlyArray<readonly [string, Slot, number]> = [
    ["hat", "head", 1],
    ["robe_top", "body", 3],
    ["robe_bottom", "legs", 2],
  ];
  for (const [suffix, slot, n] of pieces) {
    const id = `${ess}_${suffix}`;
    f.item(id, "armour", t, { level, slot, levelSkill: "defence", stats: st(t * n, t * n) });
    f.recipe(
      "crafting",
      level + n,
      [
        ["linen", n],
        [`${ess}_essence`, 1],
      ],
      id,
      1,
      "workbench",
    );
  }
}
