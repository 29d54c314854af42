import { Rng } from "../../core/index.js";
import { generateMap } from "../map/generate-map.js";
import type { ContentPack } from "../model/schema.js";
import type { TileMap } from "../model/tilemap.js";
import { BIOMES, LANDMARKS } from "./data/biomes.js";
import { generateItems } from "./generate-items.js";
import { generateMobs, generateResources } from "./generate-life.js";
import { generateNpcs } from "./generate-npcs.js";
import { placeNodes, placeSpawns, placeTownFixtures, placeVaultLoot } from "./generate-places.js";

export const DEFAULT_SEED = 20260925;
export const MAP_WIDTH = 1056;
export const MAP_HEIGHT = 768;

/**
 * The whole content pack, generated from one seed: templates (tier × material × slot) for items
 * and recipes, hand-made biomes and landmarks, and seeded placement of everything on the map.
 */
export function generateContent(seed: number = DEFAULT_SEED): { pack: ContentPack; map: TileMap } {
  const hub = LANDMARKS.find((l) => l.id === "greenvale");
  const spawn = { x: hub?.x ?? 528, y: hub?.y ?? 384 };
  const world = {
    name: "Longhaul Reaches",
    version: 1,
    mapSeed: seed,
    width: MAP_WIDTH,
    height: MAP_HEIGHT,
    spawn,
  };
  const map = generateMap({ seed, width: MAP_WIDTH, height: MAP_HEIGHT, spawn }, BIOMES, LANDMARKS);
  const rng = new Rng(seed).fork("placements");
  const { items, recipes } = generateItems();
  const resources = generateResources(BIOMES);
  const mobs = generateMobs(BIOMES, items);
  const npcs = generateNpcs(LANDMARKS, BIOMES, items, recipes);
  const { stations, portals } = placeTownFixtures(LANDMARKS, "greenvale");
  const base = { biomes: BIOMES, landmarks: LANDMARKS };
  const nodes = placeNodes(rng.fork("nodes"), map, { ...base, resources });
  const spawns = placeSpawns(rng.fork("spawns"), map, { ...base, mobs });
  const pack: ContentPack = {
    world,
    biomes: BIOMES,
    landmarks: LANDMARKS,
    items,
    recipes,
    resources,
    mobs,
    npcs,
    portals,
    stations,
    nodes,
    spawns,
    loot: placeVaultLoot(LANDMARKS, BIOMES),
  };
  return { pack, map };
}
