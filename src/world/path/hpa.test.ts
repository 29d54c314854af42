import { describe, expect, it } from "vitest";
import { Rng } from "../../core/index.js";
import { createWorld } from "../build/world.js";
import { isWalkableTerrain, type TileMap } from "../model/tilemap.js";

/** Exact 4-neighbour BFS distance over the whole map (the reference the fast finder is checked against). */
function bfs(map: TileMap, sx: number, sy: number, tx: number, ty: number): number {
  const w = map.width;
  const dist = new Int32Array(w * map.height).fill(-1);
  const q = new Int32Array(w * map.height);
  let head = 0;
  let tail = 0;
  q[tail++] = sy * w + sx;
  dist[sy * w + sx] = 0;
  const goal = ty * w + tx;
  while (head < tail) {
    const i = q[head++] ?? 0;
    if (i === goal) return dist[i] ?? -1;
    const x = i % w;
    for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w, i + w]) {
      if (j < 0 || j >= dist.length || dist[j] !== -1 || !isWalkableTerrain(map.terrain[j] ?? 2)) continue;
      dist[j] = (dist[i] ?? 0) + 1;
      q[tail++] = j;
    }
  }
  return -1;
}

describe("hierarchical path-finder", () => {
  const world = createWorld();
  const { map, paths } = world;
  const rng = new Rng(11);
  const tile = (): [number, number] => {
    for (;;) {
      const x = rng.int(0, map.width - 1);
      const y = rng.int(0, map.height - 1);
      if ((map.comp[y * map.width + x] ?? -1) >= 0) return [x, y];
    }
  };

  it("finds a path exactly when one exists, never shorter than the true distance and at most 35% longer", () => {
    for (let k = 0; k < 12; k++) {
      const [sx, sy] = tile();
      const [tx, ty] = k < 3 ? [sx + rng.int(-10, 10), sy + rng.int(-10, 10)] : tile();
      if ((map.comp[ty * map.width + tx] ?? -1) < 0) continue;
      const exact = bfs(map, sx, sy, tx, ty);
      const found = paths.find(sx, sy, tx, ty);
      if (exact < 0) {
        expect(found).toBeNull();
        continue;
      }
      expect(found).not.toBeNull();
      expect(found?.cost ?? 0).toBeGreaterThanOrEqual(exact);
      expect(found?.cost ?? 0).toBeLessThanOrEqual(Math.ceil(exact * 1.35) + 2);
    }
  });

  it("refines a path into adjacent walkable tiles whose count matches the cost", () => {
    const spawn = world.pack.world.spawn;
    const found = paths.find(spawn.x, spawn.y, 180, 390);
    expect(found).not.toBeNull();
    const tiles = paths.refine(found?.waypoints ?? []);
    expect(tiles[0]).toEqual([spawn.x, spawn.y]);
    expect(tiles.at(-1)).toEqual([180, 390]);
    expect(tiles.length - 1).toBe(found?.cost);
    for (let k = 1; k < tiles.length; k++) {
      const [ax = 0, ay = 0] = tiles[k - 1] ?? [];
      const [bx = 0, by = 0] = tiles[k] ?? [];
      expect(Math.abs(ax - bx) + Math.abs(ay - by)).toBe(1);
      expect(isWalkableTerrain(map.terrain[by * map.width + bx] ?? 2)).toBe(true);
    }
  });
});
