/** Terrain codes stored one byte per tile. */
export const TERRAIN = { grass: 0, water: 1, rock: 2, road: 3, floor: 4, wall: 5 } as const;
export type Terrain = (typeof TERRAIN)[keyof typeof TERRAIN];
export const TERRAIN_NAMES = ["grass", "water", "rock", "road", "floor", "wall"] as const;

/** A compact tile map: one byte of biome and one of terrain per tile, plus walk components. */
export interface TileMap {
  readonly width: number;
  readonly height: number;
  readonly biome: Uint8Array;
  readonly terrain: Uint8Array;
  /** Connected walkable region of each tile (4-neighbour); -1 where not walkable. */
  readonly comp: Int32Array;
  /** Component of the spawn point: the mainland every town is on. */
  readonly mainComp: number;
}

export function isWalkableTerrain(t: number): boolean {
  return t === TERRAIN.grass || t === TERRAIN.road || t === TERRAIN.floor;
}

export function walkable(map: TileMap, x: number, y: number): boolean {
  if (x < 0 || y < 0 || x >= map.width || y >= map.height) return false;
  return isWalkableTerrain(map.terrain[y * map.width + x] ?? TERRAIN.rock);
}

/** Labels 4-connected walkable regions (-1 where not walkable). */
export function labelComponents(width: number, height: number, terrain: Uint8Array): Int32Array {
  const n = width * height;
  const comp = new Int32Array(n);
  // -1: not walkable, -2: walkable and not yet labelled.
  for (let i = 0; i < n; i++) comp[i] = isWalkableTerrain(terrain[i]!) ? -2 : -1;
  const queue = new Int32Array(n);
  let label = 0;
  for (let s = 0; s < n; s++) {
    if (comp[s] !== -2) continue;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    comp[s] = label;
    while (head < tail) {
      const i = queue[head++]!;
      const x = i % width;
      if (x > 0 && comp[i - 1] === -2) {
        comp[i - 1] = label;
        queue[tail++] = i - 1;
      }
      if (x < width - 1 && comp[i + 1] === -2) {
        comp[i + 1] = label;
        queue[tail++] = i + 1;
      }
      if (i >= width && comp[i - width] === -2) {
        comp[i - width] = label;
        queue[tail++] = i - width;
      }
      if (i + width < n && comp[i + width] === -2) {
        comp[i + width] = label;
        queue[tail++] = i + width;
      }
    }
    label++;
  }
  return comp;
}
