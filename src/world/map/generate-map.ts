import { Rng } from "../../core/index.js";
import type { BiomeDef, LandmarkDef } from "../model/schema.js";
import { labelComponents, TERRAIN, type TileMap } from "../model/tilemap.js";
import { dungeonRect, type Rect, VAULT_TOWNS, vaultBuilding } from "./layout.js";
import { valueNoise } from "./noise.js";

/** How wet and how rocky each biome is, by biome id. */
const WATER_THRESHOLD: Record<string, number> = { coast: 0.6, swamp: 0.6, desert: 0.86, volcano: 0.82 };
const RIDGE_WIDTH: Record<string, number> = { highlands: 0.05, volcano: 0.04, tundra: 0.035, shadow: 0.03 };

export interface MapSpec {
  seed: number;
  width: number;
  height: number;
  spawn: { x: number; y: number };
}

/**
 * Generates the tile map from a seed and the hand-made biomes and landmarks. The result depends
 * on nothing else, so a content pack stores only the seed.
 */
export function generateMap(
  spec: MapSpec,
  biomes: readonly BiomeDef[],
  landmarks: readonly LandmarkDef[],
): TileMap {
  const { width: w, height: h } = spec;
  const rng = new Rng(spec.seed);
  const warpX = valueNoise(rng.fork("warp-x"), w, h, 64);
  const warpY = valueNoise(rng.fork("warp-y"), w, h, 64);
  const water = valueNoise(rng.fork("water"), w, h, 40);
  const ridge = valueNoise(rng.fork("ridge"), w, h, 90);
  const biome = new Uint8Array(w * h);
  const terrain = new Uint8Array(w * h);
  const waterAt = biomes.map((b) => WATER_THRESHOLD[b.id] ?? 0.72);
  const ridgeAt = biomes.map((b) => RIDGE_WIDTH[b.id] ?? 0.012);
  const cellW = w / 3;
  const cellH = h / 3;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const wx = x + ((warpX[i] ?? 0.5) - 0.5) * 160;
      const wy = y + ((warpY[i] ?? 0.5) - 0.5) * 160;
      const col = Math.max(0, Math.min(2, Math.floor(wx / cellW)));
      const row = Math.max(0, Math.min(2, Math.floor(wy / cellH)));
      const b = row * 3 + col;
      biome[i] = b;
      let t: number = TERRAIN.grass;
      if ((water[i] ?? 0) > (waterAt[b] ?? 0.72)) t = TERRAIN.water;
      else if (Math.abs((ridge[i] ?? 0) - 0.5) < (ridgeAt[b] ?? 0.012)) t = TERRAIN.rock;
      if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) t = TERRAIN.rock;
      terrain[i] = t;
    }
  }
  const towns = landmarks.filter((l) => l.kind === "town");
  const hub = towns.find((t) => t.x === spec.spawn.x && t.y === spec.spawn.y) ?? towns[0];
  for (const town of towns) {
    if (hub !== undefined && town !== hub) road(terrain, w, hub, town);
  }
  for (const a of towns) {
    for (const b of towns) {
      const near = Math.abs(a.x - b.x) < 400 && Math.abs(a.y - b.y) < 20;
      const below = Math.abs(a.x - b.x) < 20 && b.y > a.y && b.y - a.y < 300;
      if ((near && b.x > a.x) || below) road(terrain, w, a, b);
    }
  }
  for (const town of towns) disc(terrain, w, h, town.x, town.y, town.radius + 1, TERRAIN.floor);
  for (const l of landmarks.filter((l) => l.kind === "ruin"))
    disc(terrain, w, h, l.x, l.y, l.radius, TERRAIN.floor);
  for (const r of landmarks.filter((l) => l.kind === "dungeon").map(dungeonRect))
    walledRect(terrain, w, r, ridge);
  for (const d of landmarks.filter((l) => l.kind === "dungeon"))
    disc(terrain, w, h, d.x, d.y, 4, TERRAIN.floor);
  // Everything not connected to the spawn becomes rock, except the sealed dungeon reached by portal.
  const dungeonCentres = landmarks.filter((l) => l.kind === "dungeon").map((d) => d.x + d.y * w);
  keepOnly(terrain, w, h, [spec.spawn.x + spec.spawn.y * w, ...dungeonCentres]);
  for (const town of towns.filter((t) => (VAULT_TOWNS as readonly string[]).includes(t.id))) {
    const v = vaultBuilding(town);
    walledRect(terrain, w, v.rect, null);
    terrain[v.outside[1] * w + v.outside[0]] = TERRAIN.floor;
  }
  const comp = labelComponents(w, h, terrain);
  return { width: w, height: h, biome, terrain, comp, mainComp: comp[spec.spawn.y * w + spec.spawn.x] ?? -1 };
}

/** An L-shaped road three tiles wide; bridges over water and cuts through rock. */
function road(terrain: Uint8Array, w: number, a: LandmarkDef, b: LandmarkDef): void {
  const set = (x: number, y: number): void => {
    for (let d = -1; d <= 1; d++) {
      terrain[(y + d) * w + x] = TERRAIN.road;
      terrain[y * w + x + d] = TERRAIN.road;
    }
  };
  for (let x = Math.min(a.x, b.x); x <= Math.max(a.x, b.x); x++) set(x, a.y);
  for (let y = Math.min(a.y, b.y); y <= Math.max(a.y, b.y); y++) set(b.x, y);
}

function disc(terrain: Uint8Array, w: number, h: number, cx: number, cy: number, r: number, t: number): void {
  for (let y = Math.max(2, cy - r); y <= Math.min(h - 3, cy + r); y++) {
    for (let x = Math.max(2, cx - r); x <= Math.min(w - 3, cx + r); x++) {
      if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) terrain[y * w + x] = t;
    }
  }
}

/** A rectangle with a two-tile wall; the inside is floor, with rock pillars where `noise` is high. */
function walledRect(terrain: Uint8Array, w: number, r: Rect, noise: Float32Array | null): void {
  for (let y = r.y0; y <= r.y1; y++) {
    for (let x = r.x0; x <= r.x1; x++) {
      const edge = x - r.x0 < 2 || r.x1 - x < 2 || y - r.y0 < 2 || r.y1 - y < 2;
      const i = y * w + x;
      const pillar = noise !== null && (noise[i] ?? 0) > 0.68;
      terrain[i] = edge ? TERRAIN.wall : pillar ? TERRAIN.rock : TERRAIN.floor;
    }
  }
}

/** Turns every walkable tile not connected to one of `starts` into rock (one labelling pass). */
function keepOnly(terrain: Uint8Array, w: number, h: number, starts: readonly number[]): void {
  const comp = labelComponents(w, h, terrain);
  const keep = new Set(starts.map((i) => comp[i] ?? -1));
  for (let i = 0; i < terrain.length; i++) {
    const c = comp[i]!;
    if (c >= 0 && !keep.has(c)) terrain[i] = TERRAIN.rock;
  }
}
