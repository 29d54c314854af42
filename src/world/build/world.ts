import { digestOf } from "../../core/index.js";
import { DEFAULT_SEED, generateContent } from "../content/generate-content.js";
import { validatePack, validatePlacements } from "../content/validate.js";
import { generateMap } from "../map/generate-map.js";
import type {
  ContentPack,
  ItemDef,
  MobDef,
  NpcDef,
  PortalDef,
  RecipeDef,
  ResourceDef,
  StationDef,
  StationKind,
} from "../model/schema.js";
import type { TileMap } from "../model/tilemap.js";
import { PathFinder } from "../path/hpa.js";

const BUCKET = 16;

export type StaticKind = "node" | "mob" | "npc" | "station" | "portal";
export interface StaticThing {
  kind: StaticKind;
  index: number;
  x: number;
  y: number;
}

/** The immutable part of a world: content, map, indexes and the path-finder. Shared by all states. */
export interface World {
  readonly pack: ContentPack;
  readonly map: TileMap;
  readonly paths: PathFinder;
  readonly contentDigest: string;
  readonly item: ReadonlyMap<string, ItemDef>;
  readonly recipeFor: ReadonlyMap<string, RecipeDef>;
  readonly resource: ReadonlyMap<string, ResourceDef>;
  readonly mob: ReadonlyMap<string, MobDef>;
  readonly npc: ReadonlyMap<string, NpcDef>;
  readonly portal: ReadonlyMap<string, PortalDef>;
  readonly nodeIndex: ReadonlyMap<string, number>;
  readonly spawnIndex: ReadonlyMap<string, number>;
  readonly nodesOf: ReadonlyMap<string, number[]>;
  readonly spawnsOf: ReadonlyMap<string, number[]>;
  readonly stationsOf: ReadonlyMap<StationKind, StationDef[]>;
  /** Static things bucketed by 16 × 16 tiles, for "what is near me". */
  readonly buckets: ReadonlyMap<number, StaticThing[]>;
}

/** Builds the world from a validated pack (regenerating the map from its seed). */
export function buildWorld(pack: ContentPack, map?: TileMap): World {
  const m =
    map ??
    generateMap(
      {
        seed: pack.world.mapSeed,
        width: pack.world.width,
        height: pack.world.height,
        spawn: pack.world.spawn,
      },
      pack.biomes,
      pack.landmarks,
    );
  validatePlacements(pack, m);
  const byId = <T extends { id: string }>(list: readonly T[]): Map<string, T> =>
    new Map(list.map((e) => [e.id, e]));
  const group = <T>(list: readonly T[], key: (e: T) => string): Map<string, number[]> => {
    const out = new Map<string, number[]>();
    list.forEach((e, i) => {
      const k = key(e);
      const arr = out.get(k) ?? [];
      arr.push(i);
      out.set(k, arr);
    });
    return out;
  };
  const stationsOf = new Map<StationKind, StationDef[]>();
  for (const s of pack.stations) stationsOf.set(s.kind, [...(stationsOf.get(s.kind) ?? []), s]);
  const buckets = new Map<number, StaticThing[]>();
  const put = (kind: StaticKind, list: ReadonlyArray<{ x: number; y: number }>): void => {
    list.forEach((e, index) => {
      const b = bucketOf(e.x, e.y);
      const arr = buckets.get(b) ?? [];
      arr.push({ kind, index, x: e.x, y: e.y });
      buckets.set(b, arr);
    });
  };
  put("node", pack.nodes);
  put("mob", pack.spawns);
  put("npc", pack.npcs);
  put("station", pack.stations);
  put("portal", pack.portals);
  return {
    pack,
    map: m,
    paths: new PathFinder(m),
    contentDigest: digestOf(pack),
    item: byId(pack.items),
    recipeFor: new Map(pack.recipes.map((r) => [r.output.item, r])),
    resource: byId(pack.resources),
    mob: byId(pack.mobs),
    npc: byId(pack.npcs),
    portal: byId(pack.portals),
    nodeIndex: new Map(pack.nodes.map((n, i) => [n.id, i])),
    spawnIndex: new Map(pack.spawns.map((s, i) => [s.id, i])),
    nodesOf: group(pack.nodes, (n) => n.resource),
    spawnsOf: group(pack.spawns, (s) => s.mob),
    stationsOf,
    buckets,
  };
}

export function bucketOf(x: number, y: number): number {
  return Math.floor(y / BUCKET) * 4096 + Math.floor(x / BUCKET);
}

/** Static things within `radius` (Chebyshev) of (x, y). */
export function staticNear(world: World, x: number, y: number, radius: number): StaticThing[] {
  const out: StaticThing[] = [];
  for (let by = Math.floor((y - radius) / BUCKET); by <= Math.floor((y + radius) / BUCKET); by++) {
    for (let bx = Math.floor((x - radius) / BUCKET); bx <= Math.floor((x + radius) / BUCKET); bx++) {
      const bucket = world.buckets.get(by * 4096 + bx);
      if (bucket === undefined) continue;
      for (const e of bucket) if (Math.abs(e.x - x) <= radius && Math.abs(e.y - y) <= radius) out.push(e);
    }
  }
  return out;
}

const cache = new Map<number, World>();

/** The generated world for a seed, built once per process. */
export function createWorld(seed: number = DEFAULT_SEED): World {
  const key = seed;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const { pack, map } = generateContent(seed);
  const world = buildWorld(validatePack(pack), map);
  cache.set(key, world);
  return world;
}
