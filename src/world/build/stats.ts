import type { World } from "./world.js";

/** How many crafting steps the longest chain from raw materials to this item has. */
export function recipeDepths(world: World): Map<string, number> {
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const of = (item: string): number => {
    const known = depth.get(item);
    if (known !== undefined) return known;
    const r = world.recipeFor.get(item);
    if (r === undefined || visiting.has(item)) return 0;
    visiting.add(item);
    const d = 1 + Math.max(...r.inputs.map((i) => of(i.item)));
    visiting.delete(item);
    depth.set(item, d);
    return d;
  };
  for (const item of world.recipeFor.keys()) of(item);
  return depth;
}

export interface ContentCounts {
  map: { width: number; height: number; tiles: number; walkable: number };
  biomes: number;
  items: number;
  mobKinds: number;
  bosses: number;
  mobSpawns: number;
  npcs: number;
  harvestPoints: number;
  resourceKinds: number;
  recipes: number;
  maxRecipeDepth: number;
  portals: number;
  doors: number;
  stations: number;
}

export function contentCounts(world: World): ContentCounts {
  const { pack, map } = world;
  let walkable = 0;
  for (let i = 0; i < map.comp.length; i++) if ((map.comp[i] ?? -1) >= 0) walkable++;
  return {
    map: { width: map.width, height: map.height, tiles: map.width * map.height, walkable },
    biomes: pack.biomes.length,
    items: pack.items.length,
    mobKinds: pack.mobs.length,
    bosses: pack.mobs.filter((m) => m.boss).length,
    mobSpawns: pack.spawns.length,
    npcs: pack.npcs.length,
    harvestPoints: pack.nodes.length,
    resourceKinds: pack.resources.length,
    recipes: pack.recipes.length,
    maxRecipeDepth: Math.max(0, ...recipeDepths(world).values()),
    portals: pack.portals.filter((p) => p.kind === "portal").length,
    doors: pack.portals.filter((p) => p.kind === "door").length,
    stations: pack.stations.length,
  };
}
