import { isWalkableTerrain, type TileMap } from "../model/tilemap.js";

/**
 * Expands waypoints into every tile along the way (for drawing). Each leg is searched exactly in a
 * small window around its ends; a leg that cannot be found there stays a straight jump.
 */
export function refinePath(
  map: TileMap,
  waypoints: ReadonlyArray<readonly [number, number]>,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const first = waypoints[0];
  if (first !== undefined) out.push([first[0], first[1]]);
  for (let k = 1; k < waypoints.length; k++) {
    const a = waypoints[k - 1]!;
    const b = waypoints[k]!;
    // Most legs bend little; widen the window only when a lake or ridge forces a detour.
    const field =
      windowField(map, a[0], a[1], b[0], b[1], 8) ??
      windowField(map, a[0], a[1], b[0], b[1], 40) ??
      windowField(map, a[0], a[1], b[0], b[1], 120);
    if (field === null) {
      out.push([b[0], b[1]]);
      continue;
    }
    const { dist, x0, y0, ww, wh } = field;
    let cx = a[0];
    let cy = a[1];
    let d = dist[(cy - y0) * ww + cx - x0]!;
    while (d > 0) {
      let moved = false;
      for (const [nx, ny] of [
        [cx - 1, cy],
        [cx + 1, cy],
        [cx, cy - 1],
        [cx, cy + 1],
      ] as const) {
        if (nx < x0 || ny < y0 || nx >= x0 + ww || ny >= y0 + wh || dist[(ny - y0) * ww + nx - x0] !== d - 1)
          continue;
        cx = nx;
        cy = ny;
        moved = true;
        break;
      }
      if (!moved) break;
      d--;
      out.push([cx, cy]);
    }
  }
  return out;
}

/**
 * Exact BFS distances to (tx, ty) inside the box around both points grown by `margin`, or null
 * when (sx, sy) cannot reach the goal without leaving the box. Used for short moves and drawing.
 */
export function windowField(
  map: TileMap,
  sx: number,
  sy: number,
  tx: number,
  ty: number,
  margin: number,
): { dist: Int32Array; x0: number; y0: number; ww: number; wh: number } | null {
  const w = map.width;
  const x0 = Math.max(0, Math.min(sx, tx) - margin);
  const y0 = Math.max(0, Math.min(sy, ty) - margin);
  const ww = Math.min(w, Math.max(sx, tx) + margin + 1) - x0;
  const wh = Math.min(map.height, Math.max(sy, ty) + margin + 1) - y0;
  const dist = new Int32Array(ww * wh).fill(-1);
  const q = new Int32Array(ww * wh);
  let head = 0;
  let tail = 0;
  const goal = (ty - y0) * ww + tx - x0;
  const start = (sy - y0) * ww + sx - x0;
  dist[goal] = 0;
  q[tail++] = goal;
  while (head < tail) {
    const li = q[head++]!;
    if (li === start) return { dist, x0, y0, ww, wh };
    const lx = li % ww;
    const ly = (li - lx) / ww;
    const d = dist[li]! + 1;
    const ti = (y0 + ly) * w + x0 + lx;
    if (lx > 0 && dist[li - 1] === -1 && isWalkableTerrain(map.terrain[ti - 1]!)) {
      dist[li - 1] = d;
      q[tail++] = li - 1;
    }
    if (lx < ww - 1 && dist[li + 1] === -1 && isWalkableTerrain(map.terrain[ti + 1]!)) {
      dist[li + 1] = d;
      q[tail++] = li + 1;
    }
    if (ly > 0 && dist[li - ww] === -1 && isWalkableTerrain(map.terrain[ti - w]!)) {
      dist[li - ww] = d;
      q[tail++] = li - ww;
    }
    if (ly < wh - 1 && dist[li + ww] === -1 && isWalkableTerrain(map.terrain[ti + w]!)) {
      dist[li + ww] = d;
      q[tail++] = li + ww;
    }
  }
  return null;
}
