import { isWalkableTerrain, type TileMap } from "../model/tilemap.js";
import { MinHeap } from "./heap.js";
import { refinePath, windowField } from "./window.js";

const HEURISTIC_WEIGHT = 1.3;
/** Moves up to this many tiles (Manhattan) are searched exactly in a window around both ends. */
const SHORT_MOVE = 48;

export interface PathResult {
  /** Number of steps (4-neighbour moves) along the path found. */
  cost: number;
  /** Start, the border crossings used, and the goal; consecutive points are in one cluster. */
  waypoints: Array<[number, number]>;
}

/**
 * Hierarchical path-finding (HPA*): the map is cut into square clusters; border crossings are
 * the nodes of a small graph whose intra-cluster edges are precomputed by BFS, as are the
 * distances from every crossing to every tile of its cluster. A query looks those up for its two
 * ends and runs a weighted A* on the small graph, so a path across the 811k-tile map costs well
 * under a millisecond. Paths are near-optimal, not always shortest.
 */
export class PathFinder {
  private readonly size: number;
  private readonly cols: number;
  private readonly nodeTile: Int32Array;
  private readonly nodeCluster: Int32Array;
  private readonly nodeX: Int32Array;
  private readonly nodeY: Int32Array;
  private readonly clusterNodes: Int32Array[];
  /** For each node, BFS distance from it to every tile of its cluster (-1: unreachable). */
  private readonly nodeDist: Int16Array[];
  private readonly edgeStart: Int32Array;
  private readonly edgeTo: Int32Array;
  private readonly edgeCost: Int32Array;
  // Scratch space reused by every query (the engine is single-threaded).
  private readonly g: Float64Array;
  private readonly parent: Int32Array;
  private readonly seen: Int32Array;
  private readonly goalD: Int32Array;
  private readonly goalSeen: Int32Array;
  private readonly heap = new MinHeap();
  private readonly localDist: Int32Array;
  private readonly localSeen: Int32Array;
  private readonly localQueue: Int32Array;
  private query = 0;
  private localStamp = 0;

  constructor(
    private readonly map: TileMap,
    cluster = 64,
  ) {
    this.size = cluster;
    this.cols = Math.ceil(map.width / cluster);
    const rows = Math.ceil(map.height / cluster);
    this.localDist = new Int32Array(cluster * cluster);
    this.localSeen = new Int32Array(cluster * cluster);
    this.localQueue = new Int32Array(cluster * cluster);
    const tiles: number[] = [];
    const index = new Map<number, number>();
    const inter: Array<[number, number]> = [];
    const nodeOf = (tile: number): number => {
      let id = index.get(tile);
      if (id === undefined) {
        id = tiles.length;
        tiles.push(tile);
        index.set(tile, id);
      }
      return id;
    };
    const w = map.width;
    const open = (i: number): boolean => isWalkableTerrain(map.terrain[i]!);
    // Border crossings: one per short open segment, two (its ends) per long one.
    const addSegments = (len: number, pairAt: (k: number) => [number, number]): void => {
      let k = 0;
      while (k < len) {
        const [a0, b0] = pairAt(k);
        if (!open(a0) || !open(b0)) {
          k++;
          continue;
        }
        let end = k;
        while (end + 1 < len) {
          const [a, b] = pairAt(end + 1);
          if (!open(a) || !open(b)) break;
          end++;
        }
        const picks = end - k < 24 ? [(k + end) >> 1] : [k, end];
        for (const p of picks) {
          const [a, b] = pairAt(p);
          inter.push([nodeOf(a), nodeOf(b)]);
        }
        k = end + 1;
      }
    };
    for (let cy = 0; cy < rows; cy++) {
      for (let cx = 0; cx < this.cols; cx++) {
        const x0 = cx * cluster;
        const y0 = cy * cluster;
        const bx = x0 + cluster;
        if (bx < w) {
          const len = Math.min(cluster, map.height - y0);
          addSegments(len, (k) => [(y0 + k) * w + bx - 1, (y0 + k) * w + bx]);
        }
        const by = y0 + cluster;
        if (by < map.height) {
          const len = Math.min(cluster, w - x0);
          addSegments(len, (k) => [(by - 1) * w + x0 + k, by * w + x0 + k]);
        }
      }
    }
    const n = tiles.length;
    this.nodeTile = Int32Array.from(tiles);
    this.nodeCluster = new Int32Array(n);
    this.nodeX = Int32Array.from(tiles, (t) => t % w);
    this.nodeY = Int32Array.from(tiles, (t) => Math.floor(t / w));
    const perCluster: number[][] = Array.from({ length: this.cols * rows }, () => []);
    for (let id = 0; id < n; id++) {
      const c = this.clusterOf(tiles[id]!);
      this.nodeCluster[id] = c;
      perCluster[c]!.push(id);
    }
    this.clusterNodes = perCluster.map((l) => Int32Array.from(l));
    const adj: number[][] = Array.from({ length: n }, () => []);
    for (const [a, b] of inter) {
      adj[a]!.push(b, 1);
      adj[b]!.push(a, 1);
    }
    this.nodeDist = new Array<Int16Array>(n);
    for (const nodes of this.clusterNodes) {
      for (const a of nodes) {
        this.bfsLocal(this.nodeTile[a]!);
        const dist = new Int16Array(cluster * cluster).fill(-1);
        for (let li = 0; li < dist.length; li++)
          if (this.localSeen[li] === this.localStamp) dist[li] = this.localDist[li]!;
        this.nodeDist[a] = dist;
        for (const b of nodes) {
          if (b === a) continue;
          const d = this.localDistTo(this.nodeTile[b]!);
          if (d >= 0) adj[a]!.push(b, d);
        }
      }
    }
    this.edgeStart = new Int32Array(n + 1);
    let m = 0;
    for (let id = 0; id < n; id++) {
      this.edgeStart[id] = m;
      m += adj[id]!.length / 2;
    }
    this.edgeStart[n] = m;
    this.edgeTo = new Int32Array(m);
    this.edgeCost = new Int32Array(m);
    for (let id = 0; id < n; id++) {
      const list = adj[id]!;
      let e = this.edgeStart[id]!;
      for (let k = 0; k < list.length; k += 2) {
        this.edgeTo[e] = list[k]!;
        this.edgeCost[e] = list[k + 1]!;
        e++;
      }
    }
    this.g = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.seen = new Int32Array(n);
    this.goalD = new Int32Array(n);
    this.goalSeen = new Int32Array(n);
  }

  get nodeCount(): number {
    return this.nodeTile.length;
  }

  /** A path between two tiles, or null when they are not connected by walking. */
  find(sx: number, sy: number, tx: number, ty: number): PathResult | null {
    const { map } = this;
    if (sx < 0 || sy < 0 || tx < 0 || ty < 0 || sx >= map.width || tx >= map.width) return null;
    if (sy >= map.height || ty >= map.height) return null;
    const s = sy * map.width + sx;
    const t = ty * map.width + tx;
    const cs = map.comp[s]!;
    if (cs < 0 || cs !== map.comp[t]) return null;
    if (s === t) return { cost: 0, waypoints: [[sx, sy]] };
    const sc = this.clusterOf(s);
    const tc = this.clusterOf(t);
    // Short moves: an exact search in a small window, which HPA's fixed crossings would distort.
    if (Math.abs(sx - tx) + Math.abs(sy - ty) <= SHORT_MOVE) {
      const field = windowField(this.map, sx, sy, tx, ty, 16);
      if (field !== null) {
        const d = field.dist[(sy - field.y0) * field.ww + sx - field.x0]!;
        return {
          cost: d,
          waypoints: [
            [sx, sy],
            [tx, ty],
          ],
        };
      }
    }
    const q = ++this.query;
    const tl = this.localIndex(t);
    for (const id of this.clusterNodes[tc]!) {
      const d = this.nodeDist[id]![tl]!;
      if (d >= 0) {
        this.goalSeen[id] = q;
        this.goalD[id] = d;
      }
    }
    const heap = this.heap;
    heap.clear();
    const sl = this.localIndex(s);
    for (const id of this.clusterNodes[sc]!) {
      const d = this.nodeDist[id]![sl]!;
      if (d < 0) continue;
      this.seen[id] = q;
      this.g[id] = d;
      this.parent[id] = -1;
      heap.push(d + this.h(id, tx, ty), id);
    }
    let best = Number.POSITIVE_INFINITY;
    let bestNode = -1;
    // Hot loop: typed arrays in locals, heuristic inlined.
    const { g, seen, parent, goalSeen, goalD, edgeStart, edgeTo, edgeCost, nodeX, nodeY } = this;
    const hw = HEURISTIC_WEIGHT;
    while (heap.size > 0 && heap.peekKey() < best) {
      const key = heap.peekKey();
      const u = heap.pop();
      const gu = g[u]!;
      if (gu + hw * (Math.abs(nodeX[u]! - tx) + Math.abs(nodeY[u]! - ty)) < key) continue; // stale entry
      if (goalSeen[u] === q && gu + goalD[u]! < best) {
        best = gu + goalD[u]!;
        bestNode = u;
      }
      const eEnd = edgeStart[u + 1]!;
      for (let e = edgeStart[u]!; e < eEnd; e++) {
        const v = edgeTo[e]!;
        const ng = gu + edgeCost[e]!;
        if (seen[v] === q && g[v]! <= ng) continue;
        seen[v] = q;
        g[v] = ng;
        parent[v] = u;
        heap.push(ng + hw * (Math.abs(nodeX[v]! - tx) + Math.abs(nodeY[v]! - ty)), v);
      }
    }
    if (bestNode < 0) return null;
    const chain: Array<[number, number]> = [];
    for (let u = bestNode; u >= 0; u = this.parent[u]!) {
      const tile = this.nodeTile[u]!;
      chain.push([tile % map.width, Math.floor(tile / map.width)]);
    }
    chain.reverse();
    return { cost: best, waypoints: [[sx, sy], ...chain, [tx, ty]] };
  }

  /** Expands waypoints into every tile along the way (for drawing); see refinePath. */
  refine(waypoints: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
    return refinePath(this.map, waypoints);
  }

  /** Manhattan distance, inflated: a weighted A* expands far fewer nodes for paths a few % longer. */
  private h(node: number, tx: number, ty: number): number {
    return HEURISTIC_WEIGHT * (Math.abs(this.nodeX[node]! - tx) + Math.abs(this.nodeY[node]! - ty));
  }

  /** Index of a tile inside its cluster's size × size block. */
  private localIndex(tile: number): number {
    const x = tile % this.map.width;
    const y = (tile - x) / this.map.width;
    return (y % this.size) * this.size + (x % this.size);
  }

  private clusterOf(tile: number): number {
    const x = tile % this.map.width;
    const y = (tile - x) / this.map.width;
    return Math.floor(y / this.size) * this.cols + Math.floor(x / this.size);
  }

  /** BFS from `start` confined to its cluster; read results with localDistTo. */
  private bfsLocal(start: number): void {
    const { map, size } = this;
    const w = map.width;
    const sx = start % w;
    const sy = (start - sx) / w;
    const x0 = sx - (sx % size);
    const y0 = sy - (sy % size);
    const x1 = Math.min(x0 + size, w);
    const y1 = Math.min(y0 + size, map.height);
    const stamp = ++this.localStamp;
    const q = this.localQueue;
    const seen = this.localSeen;
    const dist = this.localDist;
    const terrain = map.terrain;
    const sw = x1 - x0;
    const sh = y1 - y0;
    let head = 0;
    let tail = 0;
    const first = (sy - y0) * size + (sx - x0);
    q[tail++] = first;
    seen[first] = stamp;
    dist[first] = 0;
    while (head < tail) {
      const li = q[head++]!;
      const lx = li % size;
      const ly = (li - lx) / size;
      const d = dist[li]! + 1;
      const ti = (y0 + ly) * w + x0 + lx;
      if (lx > 0 && seen[li - 1] !== stamp && isWalkableTerrain(terrain[ti - 1]!)) {
        seen[li - 1] = stamp;
        dist[li - 1] = d;
        q[tail++] = li - 1;
      }
      if (lx < sw - 1 && seen[li + 1] !== stamp && isWalkableTerrain(terrain[ti + 1]!)) {
        seen[li + 1] = stamp;
        dist[li + 1] = d;
        q[tail++] = li + 1;
      }
      if (ly > 0 && seen[li - size] !== stamp && isWalkableTerrain(terrain[ti - w]!)) {
        seen[li - size] = stamp;
        dist[li - size] = d;
        q[tail++] = li - size;
      }
      if (ly < sh - 1 && seen[li + size] !== stamp && isWalkableTerrain(terrain[ti + w]!)) {
        seen[li + size] = stamp;
        dist[li + size] = d;
        q[tail++] = li + size;
      }
    }
    this.localOrigin = [x0, y0];
  }

  private localOrigin: [number, number] = [0, 0];

  /** Distance from the last bfsLocal start to `tile`, or -1 (unreached or in another cluster). */
  private localDistTo(tile: number): number {
    const w = this.map.width;
    const x = tile % w;
    const y = (tile - x) / w;
    const [x0, y0] = this.localOrigin;
    if (x < x0 || y < y0 || x >= x0 + this.size || y >= y0 + this.size) return -1;
    const li = (y - y0) * this.size + (x - x0);
    return this.localSeen[li] === this.localStamp ? this.localDist[li]! : -1;
  }
}
