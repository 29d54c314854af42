import type { Rng } from "../../core/index.js";
import { dungeonRect, plazaSlot, VAULT_TOWNS, vaultBuilding } from "../map/layout.js";
import type {
  BiomeDef,
  ContentPack,
  LandmarkDef,
  LootDef,
  NodeDef,
  PortalDef,
  ResourceDef,
  SpawnDef,
  StationDef,
} from "../model/schema.js";
import { TERRAIN, type TileMap } from "../model/tilemap.js";
import { METALS, POTIONS, TIER_LEVELS } from "./data/materials.js";

const NODES_PER_BIOME = 186;
const SPAWNS_PER_MOB = 4;

/** Stations, portals and doors: four stations per town, a portal ring through the hub, vault doors. */
export function placeTownFixtures(
  landmarks: readonly LandmarkDef[],
  hubId: string,
): { stations: StationDef[]; portals: PortalDef[] } {
  const towns = landmarks.filter((l) => l.kind === "town");
  const hub = towns.find((t) => t.id === hubId);
  const stations: StationDef[] = [];
  const portals: PortalDef[] = [];
  for (const town of towns) {
    (["furnace", "anvil", "range", "workbench"] as const).forEach((kind, k) => {
      const [x, y] = plazaSlot(town, 8 + k);
      stations.push({ id: `${town.id}_${kind}`, kind, x, y });
    });
  }
  if (hub !== undefined) {
    towns
      .filter((t) => t !== hub)
      .forEach((town, k) => {
        const [hx, hy] = plazaSlot(hub, 16 + k);
        const [tx, ty] = plazaSlot(town, 16);
        portals.push({
          id: `portal_${hub.id}_${town.id}`,
          name: `Portal to ${town.name}`,
          kind: "portal",
          x: hx,
          y: hy,
          toX: tx,
          toY: ty + 1,
        });
        portals.push({
          id: `portal_${town.id}_${hub.id}`,
          name: `Portal to ${hub.name}`,
          kind: "portal",
          x: tx,
          y: ty,
          toX: hx,
          toY: hy + 1,
        });
      });
  }
  for (const d of landmarks.filter((l) => l.kind === "dungeon")) {
    const town = towns.find((t) => t.biome === d.biome);
    if (town === undefined) continue;
    const [x, y] = plazaSlot(town, 17);
    portals.push({
      id: `portal_${d.id}`,
      name: `Sealed gate to ${d.name}`,
      kind: "portal",
      x,
      y,
      toX: d.x,
      toY: d.y,
      requiresItem: `${d.id}_key`,
    });
    portals.push({
      id: `portal_${d.id}_exit`,
      name: `Gate back to ${town.name}`,
      kind: "portal",
      x: d.x + 1,
      y: d.y,
      toX: x,
      toY: y + 1,
    });
  }
  for (const town of towns.filter((t) => (VAULT_TOWNS as readonly string[]).includes(t.id))) {
    const v = vaultBuilding(town);
    const [ox, oy] = v.outside;
    const [ix, iy] = v.inside;
    portals.push({
      id: `door_${town.id}_vault`,
      name: `${town.name} vault door`,
      kind: "door",
      x: ox,
      y: oy,
      toX: ix,
      toY: iy,
      requiresItem: `${town.id}_key`,
    });
    portals.push({
      id: `door_${town.id}_vault_exit`,
      name: `${town.name} vault exit`,
      kind: "door",
      x: ix,
      y: iy,
      toX: ox,
      toY: oy,
    });
  }
  return { stations, portals };
}

/**
 * Treasure inside each locked vault (the 3 × 3 room behind the door): coins, armour and potions
 * of the town's tier. Only one team can take each pile; it does not come back.
 */
export function placeVaultLoot(landmarks: readonly LandmarkDef[], biomes: readonly BiomeDef[]): LootDef[] {
  const loot: LootDef[] = [];
  for (const town of landmarks.filter((t) => (VAULT_TOWNS as readonly string[]).includes(t.id))) {
    const levelMin = biomes.find((b) => b.id === town.biome)?.levelMin ?? 1;
    const tier = Math.max(1, TIER_LEVELS.filter((l) => l <= levelMin).length);
    const [ix, iy] = vaultBuilding(town).inside;
    const piles: Array<[string, number]> = [
      ["coins", 250 * tier],
      [`${METALS[tier - 1] ?? "bronze"}_kiteshield`, 1],
      [`${POTIONS[tier - 1] ?? "minor"}_potion`, 3],
    ];
    piles.forEach(([item, qty], k) => {
      loot.push({ id: `loot_${town.id}_${k}`, item, qty, x: ix - 1 + k, y: iy - 1 });
    });
  }
  return loot;
}

/** Harvest points spread over each biome; fishing spots sit on shore tiles next to water. */
export function placeNodes(
  rng: Rng,
  map: TileMap,
  pack: Pick<ContentPack, "biomes" | "resources" | "landmarks">,
): NodeDef[] {
  const nodes: NodeDef[] = [];
  const used = new Set<number>();
  pack.biomes.forEach((biome, b) => {
    const kinds = pack.resources.filter((r) => r.biomes.includes(biome.id));
    const byKind = (k: ResourceDef["kind"]): ResourceDef[] => kinds.filter((r) => r.kind === k);
    const plan: Array<[ResourceDef[], number]> = [
      [byKind("tree"), 0.32],
      [byKind("rock"), 0.28],
      [byKind("fishing_spot"), 0.14],
      [byKind("forage"), 0.26],
    ];
    for (const [list, share] of plan) {
      if (list.length === 0) continue;
      const count = Math.round(NODES_PER_BIOME * share);
      for (let k = 0; k < count; k++) {
        const res = list[k % list.length];
        if (res === undefined) continue;
        const at = findTile(rng, map, b, used, pack.landmarks, res.kind === "fishing_spot");
        if (at === null) continue;
        used.add(at);
        nodes.push({
          id: `node_${nodes.length}`,
          resource: res.id,
          x: at % map.width,
          y: Math.floor(at / map.width),
        });
      }
    }
  });
  return nodes;
}

/** Mob spawn points in the mob's biome; each biome's warden waits far from towns (or in the dungeon). */
export function placeSpawns(
  rng: Rng,
  map: TileMap,
  pack: Pick<ContentPack, "biomes" | "mobs" | "landmarks">,
): SpawnDef[] {
  const spawns: SpawnDef[] = [];
  const used = new Set<number>();
  const dungeon = pack.landmarks.find((l) => l.kind === "dungeon");
  for (const mob of pack.mobs) {
    const b = pack.biomes.findIndex((x) => x.id === mob.biome);
    const n = mob.boss ? 1 : SPAWNS_PER_MOB;
    for (let k = 0; k < n; k++) {
      let at: number | null;
      if (mob.boss && dungeon !== undefined && dungeon.biome === mob.biome) {
        const r = dungeonRect(dungeon);
        at = (r.y1 - 6) * map.width + r.x1 - 6;
        if (map.comp[at] !== map.comp[dungeon.y * map.width + dungeon.x])
          at = dungeon.y * map.width + dungeon.x - 3;
      } else {
        at = findTile(rng, map, b, used, pack.landmarks, false, 20);
      }
      if (at === null) continue;
      used.add(at);
      spawns.push({
        id: `mob_${spawns.length}`,
        mob: mob.id,
        x: at % map.width,
        y: Math.floor(at / map.width),
      });
    }
  }
  return spawns;
}

function findTile(
  rng: Rng,
  map: TileMap,
  biome: number,
  used: ReadonlySet<number>,
  landmarks: readonly LandmarkDef[],
  shore: boolean,
  townMargin = 4,
): number | null {
  const w = map.width;
  const col = biome % 3;
  const row = Math.floor(biome / 3);
  const cw = Math.floor(w / 3);
  const ch = Math.floor(map.height / 3);
  for (let attempt = 0; attempt < 400; attempt++) {
    const x = col * cw + rng.int(0, cw - 1);
    const y = row * ch + rng.int(0, ch - 1);
    const i = y * w + x;
    if (map.biome[i] !== biome || map.comp[i] !== map.mainComp || used.has(i)) continue;
    if (map.terrain[i] !== TERRAIN.grass) continue;
    if (
      landmarks.some(
        (l) => l.kind !== "dungeon" && (l.x - x) ** 2 + (l.y - y) ** 2 < (l.radius + townMargin) ** 2,
      )
    )
      continue;
    const wet = [i - 1, i + 1, i - w, i + w].some((j) => map.terrain[j] === TERRAIN.water);
    if (shore !== wet) continue;
    return i;
  }
  return null;
}
