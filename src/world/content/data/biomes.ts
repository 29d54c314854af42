import type { BiomeDef, LandmarkDef } from "../../model/schema.js";

/**
 * Hand-made part of the world: the nine biomes (laid out as a 3 × 3 grid, low levels in the
 * middle row) and their landmarks. Index in this list is the biome's number on the map.
 */
export const BIOMES: BiomeDef[] = [
  { id: "tundra", name: "Frostreach Tundra", levelMin: 45, levelMax: 60, color: [220, 232, 240] },
  { id: "highlands", name: "Greyspine Highlands", levelMin: 35, levelMax: 50, color: [150, 140, 125] },
  { id: "volcano", name: "Emberfall Caldera", levelMin: 60, levelMax: 75, color: [120, 60, 45] },
  { id: "forest", name: "Elderwood Forest", levelMin: 8, levelMax: 22, color: [40, 110, 50] },
  { id: "meadow", name: "Greenvale Meadow", levelMin: 1, levelMax: 10, color: [120, 190, 90] },
  { id: "swamp", name: "Murkfen Swamp", levelMin: 20, levelMax: 35, color: [80, 100, 70] },
  { id: "coast", name: "Saltwind Coast", levelMin: 5, levelMax: 18, color: [225, 210, 160] },
  { id: "desert", name: "Sunscar Desert", levelMin: 28, levelMax: 42, color: [230, 190, 110] },
  { id: "shadow", name: "Gloomhollow Wastes", levelMin: 70, levelMax: 90, color: [70, 60, 90] },
];

/** Town and landmark positions on the 1,056 × 768 map (cells are 352 × 256). */
export const LANDMARKS: LandmarkDef[] = [
  { id: "frosthold", name: "Frosthold", kind: "town", biome: "tundra", x: 170, y: 120, radius: 12 },
  { id: "stonegate", name: "Stonegate", kind: "town", biome: "highlands", x: 530, y: 130, radius: 12 },
  { id: "cinderkeep", name: "Cinderkeep", kind: "town", biome: "volcano", x: 880, y: 125, radius: 12 },
  { id: "oakhaven", name: "Oakhaven", kind: "town", biome: "forest", x: 180, y: 390, radius: 12 },
  { id: "greenvale", name: "Greenvale", kind: "town", biome: "meadow", x: 528, y: 384, radius: 14 },
  { id: "fenwick", name: "Fenwick", kind: "town", biome: "swamp", x: 875, y: 380, radius: 12 },
  { id: "saltmere", name: "Saltmere", kind: "town", biome: "coast", x: 175, y: 640, radius: 12 },
  { id: "dunehollow", name: "Dunehollow", kind: "town", biome: "desert", x: 525, y: 645, radius: 12 },
  { id: "gloomspire", name: "Gloomspire", kind: "town", biome: "shadow", x: 800, y: 600, radius: 12 },
  { id: "deepvault", name: "The Deepvault", kind: "dungeon", biome: "shadow", x: 975, y: 700, radius: 40 },
  { id: "old_watchtower", name: "Old Watchtower", kind: "ruin", biome: "forest", x: 90, y: 300, radius: 5 },
  { id: "sunken_shrine", name: "Sunken Shrine", kind: "ruin", biome: "swamp", x: 960, y: 300, radius: 5 },
];
