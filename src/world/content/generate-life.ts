import type { BiomeDef, ItemDef, MobDef, ResourceDef } from "../model/schema.js";
import {
  BIOME_PREFIX,
  CREATURES,
  ESSENCES,
  FISH,
  FRUITS,
  GEMS,
  HERBS,
  HIDES,
  MEATS,
  METALS,
  ORES,
  TIER_LEVELS,
  WOODS,
} from "./data/materials.js";
import { titleCase } from "./item-factory.js";

/** Biomes whose level band suits a resource of this level (always at least one). */
function biomesFor(biomes: readonly BiomeDef[], level: number): string[] {
  const fit = biomes.filter((b) => level >= b.levelMin - 12 && level <= b.levelMax + 2).map((b) => b.id);
  if (fit.length > 0) return fit;
  const nearest = [...biomes].sort((a, b) => Math.abs(a.levelMax - level) - Math.abs(b.levelMax - level));
  return [nearest[0]?.id ?? "meadow"];
}

export function generateResources(biomes: readonly BiomeDef[]): ResourceDef[] {
  const out: ResourceDef[] = [];
  const add = (r: Omit<ResourceDef, "biomes" | "xp">, biomeIds?: string[]): void => {
    out.push({ ...r, xp: 5 + r.level * 2, biomes: biomeIds ?? biomesFor(biomes, r.level) });
  };
  WOODS.forEach((wood, i) => {
    const level = TIER_LEVELS[i] ?? 1;
    const base = { kind: "tree", skill: "woodcutting", level, tool: "axe" } as const;
    add({
      id: `${wood}_tree`,
      name: `${titleCase(wood)} tree`,
      ...base,
      yield: y(`${wood}_log`),
      respawnTicks: 3 + i,
    });
  });
  for (const [ore, level, tier] of ORES) {
    const name = `${titleCase(ore.replace(/_ore$/, ""))} rock`;
    const base = { kind: "rock", skill: "mining", level, tool: "pickaxe" } as const;
    add({ id: `${ore.replace(/_ore$/, "")}_rock`, name, ...base, yield: y(ore), respawnTicks: 3 + tier });
  }
  GEMS.forEach((gem, i) => {
    const level = (TIER_LEVELS[i] ?? 1) + 5;
    const base = { kind: "rock", skill: "mining", level, tool: "pickaxe" } as const;
    add({
      id: `${gem}_vein`,
      name: `${titleCase(gem)} vein`,
      ...base,
      yield: y(`uncut_${gem}`),
      respawnTicks: 6 + i,
    });
  });
  FISH.forEach((fish, i) => {
    const level = TIER_LEVELS[i] ?? 1;
    const base = { kind: "fishing_spot", skill: "fishing", level, tool: "rod" } as const;
    add({
      id: `${fish}_spot`,
      name: `${titleCase(fish)} spot`,
      ...base,
      yield: y(`raw_${fish}`),
      respawnTicks: 2 + i,
    });
  });
  HERBS.forEach((herb, i) => {
    const level = TIER_LEVELS[i] ?? 1;
    const base = { kind: "forage", skill: "foraging", level } as const;
    add({
      id: `${herb}_patch`,
      name: `${titleCase(herb)} patch`,
      ...base,
      yield: y(`${herb}_herb`),
      respawnTicks: 4 + i,
    });
  });
  FRUITS.forEach((fruit, i) => {
    const biome = biomes[i];
    const level = biome?.levelMin ?? 1;
    const base = { kind: "forage", skill: "foraging", level } as const;
    add(
      { id: `${fruit}_bush`, name: `${titleCase(fruit)} bush`, ...base, yield: y(fruit, 2), respawnTicks: 3 },
      [biome?.id ?? "meadow"],
    );
  });
  const everywhere = biomes.map((b) => b.id);
  add(
    {
      id: "flax_field",
      name: "Flax field",
      kind: "forage",
      skill: "foraging",
      level: 1,
      yield: y("flax", 2),
      respawnTicks: 2,
    },
    everywhere,
  );
  add(
    {
      id: "sand_pit",
      name: "Sand pit",
      kind: "forage",
      skill: "foraging",
      level: 1,
      yield: y("sand", 2),
      respawnTicks: 2,
    },
    ["coast", "desert"],
  );
  return out;
}

function y(item: string, qty = 1): { item: string; qty: number } {
  return { item, qty };
}

function tierOf(level: number): number {
  return Math.max(1, Math.min(8, 1 + Math.floor(level / 10)));
}

/** 16 creatures in each of the 9 biomes plus one boss per biome. */
export function generateMobs(biomes: readonly BiomeDef[], items: readonly ItemDef[]): MobDef[] {
  const itemIds = new Set(items.map((i) => i.id));
  const out: MobDef[] = [];
  biomes.forEach((biome, b) => {
    const prefix = BIOME_PREFIX[b] ?? "Wild";
    CREATURES.forEach(([creature, hpF, attF, defF, aggressive, family], k) => {
      const level = Math.round(
        biome.levelMin + ((biome.levelMax - biome.levelMin) * k) / (CREATURES.length - 1),
      );
      out.push({
        id: `${prefix.toLowerCase()}_${creature}`,
        name: `${prefix} ${creature}`,
        biome: biome.id,
        level,
        hp: Math.round((8 + level * 2.5) * hpF),
        attack: Math.round((2 + level) * attF),
        defence: Math.round((1 + level) * defF),
        aggressive,
        aggroRange: aggressive ? 3 + (k % 3) : 0,
        drops: dropsFor(family, level, biome.id, itemIds),
        dropRolls: 1 + (k % 2),
        respawnTicks: 4 + (k % 5),
        boss: false,
      });
    });
    const level = Math.min(99, biome.levelMax + 5);
    const t = tierOf(level);
    out.push({
      id: `${biome.id}_warden`,
      name: `Warden of ${biome.name}`,
      biome: biome.id,
      level,
      hp: Math.round((8 + level * 2.5) * 6),
      attack: Math.round((2 + level) * 1.6),
      defence: Math.round((1 + level) * 1.5),
      aggressive: true,
      aggroRange: 6,
      drops: [
        { item: `${biome.id}_trophy`, min: 1, max: 1, weight: 1 },
        { item: `${METALS[t - 1]}_longsword`, min: 1, max: 1, weight: 1 },
        { item: `uncut_${GEMS[t - 1]}`, min: 1, max: 3, weight: 1 },
      ],
      dropRolls: 2,
      respawnTicks: 30,
      boss: true,
    });
  });
  return out;
}

function dropsFor(
  family: string,
  level: number,
  biome: string,
  itemIds: ReadonlySet<string>,
): MobDef["drops"] {
  const t = tierOf(level);
  const drops: MobDef["drops"] = [{ item: "coins", min: 2 + level, max: 10 + level * 3, weight: 4 }];
  if (family === "beast") {
    drops.push({ item: `${HIDES[t - 1]}_hide`, min: 1, max: 1, weight: 3 });
    drops.push({ item: `raw_${MEATS[level % MEATS.length]}`, min: 1, max: 2, weight: 2 });
    drops.push({ item: "feather", min: 3, max: 10, weight: 2 });
  } else if (family === "humanoid") {
    drops.push({ item: `${METALS[t - 1]}_dagger`, min: 1, max: 1, weight: 1 });
    drops.push({ item: `${METALS[t - 1]}_bar`, min: 1, max: 2, weight: 1 });
    drops.push({ item: "flax", min: 1, max: 4, weight: 2 });
  } else if (family === "undead") {
    drops.push({ item: "bones", min: 1, max: 3, weight: 3 });
    drops.push({ item: `${ESSENCES[t - 1]}_essence`, min: 1, max: 2, weight: 2 });
  } else {
    drops.push({ item: `${ESSENCES[t - 1]}_essence`, min: 1, max: 3, weight: 3 });
    drops.push({ item: `uncut_${GEMS[t - 1]}`, min: 1, max: 1, weight: 1 });
  }
  drops.push({ item: `${biome}_relic`, min: 1, max: 1, weight: 0.3 });
  return drops.filter((d) => itemIds.has(d.item));
}
