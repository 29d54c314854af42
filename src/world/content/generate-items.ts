import { VAULT_TOWNS } from "../map/layout.js";
import type { ItemDef, RecipeDef } from "../model/schema.js";
import { LANDMARKS } from "./data/biomes.js";
import {
  ESSENCES,
  FISH,
  FRUITS,
  GEMS,
  HERBS,
  HIDES,
  MEATS,
  METALS,
  ORES,
  POTIONS,
  TIER_LEVELS,
  WOODS,
} from "./data/materials.js";
import { leatherTier, metalTier, robeTier, woodTier } from "./generate-gear.js";
import { ItemFactory, st } from "./item-factory.js";

export function generateItems(): { items: ItemDef[]; recipes: RecipeDef[] } {
  const f = new ItemFactory();
  basics(f);
  for (const [ore, level, tier] of ORES) f.item(ore, "resource", tier, { level });
  f.item("silver_bar", "material", 2, { level: 15 });
  f.item("gold_bar", "material", 3, { level: 25 });
  f.recipe("smelting", 15, [["silver_ore", 1]], "silver_bar", 1, "furnace");
  f.recipe("smelting", 25, [["gold_ore", 1]], "gold_bar", 1, "furnace");
  METALS.forEach((metal, i) => {
    metalTier(f, metal, i + 1);
  });
  WOODS.forEach((wood, i) => {
    woodTier(f, wood, i + 1);
  });
  HIDES.forEach((hide, i) => {
    leatherTier(f, hide, i + 1);
  });
  ESSENCES.forEach((ess, i) => {
    robeTier(f, ess, i + 1);
  });
  FISH.forEach((fish, i) => {
    const t = i + 1;
    const level = TIER_LEVELS[i] ?? 1;
    f.item(`raw_${fish}`, "resource", t, { level });
    f.item(`cooked_${fish}`, "food", t, { level: 1, heal: 3 + 3 * t });
    f.recipe("cooking", level, [[`raw_${fish}`, 1]], `cooked_${fish}`, 1, "range");
  });
  HERBS.forEach((herb, i) => {
    const t = i + 1;
    const level = TIER_LEVELS[i] ?? 1;
    f.item(`${herb}_herb`, "resource", t, { level });
    const potion = `${POTIONS[i]}_potion`;
    f.item(potion, "potion", t, { level: 1, heal: 5 + 4 * t });
    f.recipe(
      "alchemy",
      level,
      [
        [`${herb}_herb`, 1],
        ["vial", 1],
      ],
      potion,
    );
  });
  FRUITS.forEach((fruit, i) => {
    f.item(fruit, "food", 1 + Math.floor(i / 2), { level: 1, heal: 2 + i });
  });
  GEMS.forEach((gem, i) => {
    const t = i + 1;
    const level = (TIER_LEVELS[i] ?? 1) + 5;
    f.item(`uncut_${gem}`, "resource", t, { level });
    f.item(gem, "material", t, { level });
    f.recipe("crafting", level, [[`uncut_${gem}`, 1]], gem);
    f.item(`${gem}_ring`, "jewellery", t, { level, slot: "ring", levelSkill: "defence", stats: st(t, t) });
    f.recipe(
      "crafting",
      level,
      [
        ["gold_bar", 1],
        [gem, 1],
      ],
      `${gem}_ring`,
      1,
      "furnace",
    );
    f.item(`${gem}_amulet`, "jewellery", t, {
      level,
      slot: "neck",
      levelSkill: "defence",
      stats: st(2 * t, t),
    });
    f.recipe(
      "crafting",
      level + 3,
      [
        ["gold_bar", 2],
        [gem, 1],
      ],
      `${gem}_amulet`,
      1,
      "furnace",
    );
  });
  MEATS.forEach((meat, i) => {
    f.item(`raw_${meat}`, "resource", 1, { level: 1 });
    f.item(`cooked_${meat}`, "food", 1, { level: 1, heal: 4 + 2 * i });
    f.recipe("cooking", 1 + 5 * i, [[`raw_${meat}`, 1]], `cooked_${meat}`, 1, "range");
  });
  // One key per locked door or gate: the vault towns' doors and the dungeon gate.
  for (const town of VAULT_TOWNS) f.item(`${town}_key`, "key", 0);
  for (const d of LANDMARKS.filter((l) => l.kind === "dungeon")) f.item(`${d.id}_key`, "key", 0);
  for (const biome of [
    "tundra",
    "highlands",
    "volcano",
    "forest",
    "meadow",
    "swamp",
    "coast",
    "desert",
    "shadow",
  ]) {
    f.item(`${biome}_relic`, "quest", 0, { price: 50 });
    f.item(`${biome}_trophy`, "quest", 0, { price: 500 });
  }
  return { items: f.items, recipes: f.recipes };
}

function basics(f: ItemFactory): void {
  f.item("coins", "currency", 0, { stackSize: 1_000_000, price: 1 });
  f.item("bones", "resource", 0, { price: 2 });
  f.item("feather", "resource", 0, { price: 2 });
  f.item("flax", "resource", 0, { price: 2 });
  f.item("sand", "resource", 0, { price: 1 });
  f.item("thread", "material", 0, { price: 2 });
  f.item("linen", "material", 0, { price: 6 });
  f.item("bowstring", "material", 0, { price: 5 });
  f.item("glass", "material", 0, { price: 4 });
  f.item("vial", "material", 0, { price: 6 });
  f.item("fishing_rod", "tool", 1, { toolFor: "fishing", levelSkill: "fishing", price: 10 });
  f.recipe("crafting", 1, [["flax", 1]], "thread", 2);
  f.recipe("crafting", 5, [["flax", 2]], "linen", 1, "workbench");
  f.recipe("fletching", 5, [["flax", 1]], "bowstring");
  f.recipe("smelting", 5, [["sand", 1]], "glass", 1, "furnace");
  f.recipe("crafting", 8, [["glass", 1]], "vial", 1, "workbench");
}
