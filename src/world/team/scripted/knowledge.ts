import type { World } from "../../build/world.js";
import type { RoleDef } from "../../model/roles.js";
import type { RecipeDef, ResourceDef, Skill, StationDef } from "../../model/schema.js";

const GATHER: Record<string, Skill> = {
  tree: "woodcutting",
  rock: "mining",
  fishing_spot: "fishing",
  forage: "foraging",
};

export interface Point {
  x: number;
  y: number;
}

/**
 * What one agent knows from its role document, as the structured data the document is written
 * from (`build/role-doc.ts` applies the same filters): the recipes of its crafting skills and the
 * nearest two stations of each kind they use, the resources of its gathering skills, the NPCs and
 * their shops when the role knows NPCs, the monster kinds when it knows monsters. Two things go
 * beyond the text, because the document gives no place for them: every harvest point of a
 * resource it gathers (the text lists the nearest three, which may all be depleted) and the spawn
 * points of the monster kinds it knows (the text lists monsters without places).
 */
export interface Knowledge {
  recipes: ReadonlyMap<string, RecipeDef>;
  stations: ReadonlyMap<string, readonly StationDef[]>;
  /** By yielded item. */
  resources: ReadonlyMap<string, { res: ResourceDef; nodes: ReadonlyArray<Point & { index: number }> }>;
  /** NPC id → where it stands (roles that know NPCs). */
  npcs: ReadonlyMap<string, Point>;
  /** Item → the shops that sell it (roles that know NPCs). */
  shops: ReadonlyMap<string, readonly string[]>;
  /** Monster kinds known; their spawn points (roles that know monsters). */
  monsters: ReadonlyMap<string, readonly Point[]>;
  fights: boolean;
}

const dist = (a: Point, b: Point): number => Math.abs(a.x - b.x) + Math.abs(a.y - b.y);

/** Knowledge of an agent told `role` whose document starts from `from`; empty without a document. */
export function knowledgeOf(
  world: World,
  role: RoleDef | undefined,
  from: Point,
  documented: boolean,
): Knowledge {
  const empty: Knowledge = {
    recipes: new Map(),
    stations: new Map(),
    resources: new Map(),
    npcs: new Map(),
    shops: new Map(),
    monsters: new Map(),
    fights: role?.tools.includes("attack_entity") ?? false,
  };
  if (role === undefined || !documented) return empty;
  const level = (s: Skill): number => role.skills[s] ?? 0;
  const recipes = new Map<string, RecipeDef>();
  if (role.tools.includes("craft_item"))
    for (const r of world.pack.recipes) if (level(r.skill) > 0) recipes.set(r.output.item, r);
  const stations = new Map<string, StationDef[]>();
  for (const r of recipes.values()) {
    if (r.station === undefined || stations.has(r.station)) continue;
    const all = world.stationsOf.get(r.station) ?? [];
    stations.set(r.station, [...all].sort((a, b) => dist(a, from) - dist(b, from)).slice(0, 2));
  }
  const resources = new Map<string, { res: ResourceDef; nodes: Array<Point & { index: number }> }>();
  if (role.tools.includes("harvest_resource"))
    for (const res of world.pack.resources) {
      if (GATHER[res.kind] !== res.skill || level(res.skill) <= 0) continue;
      const nodes = (world.nodesOf.get(res.id) ?? []).flatMap((index) => {
        const n = world.pack.nodes[index];
        return n === undefined ? [] : [{ x: n.x, y: n.y, index }];
      });
      // Several kinds may yield one item: keep the one the role gathers at the lowest level.
      const had = resources.get(res.yield.item);
      if (had === undefined || had.res.level > res.level) resources.set(res.yield.item, { res, nodes });
    }
  const npcs = new Map<string, Point>();
  const shops = new Map<string, string[]>();
  if (role.knows.npcs === true)
    for (const n of world.pack.npcs) {
      npcs.set(n.id, { x: n.x, y: n.y });
      for (const e of n.store ?? []) shops.set(e.item, [...(shops.get(e.item) ?? []), n.id]);
    }
  const monsters = new Map<string, Point[]>();
  if (role.knows.monsters)
    for (const m of world.pack.mobs)
      monsters.set(
        m.id,
        (world.spawnsOf.get(m.id) ?? []).flatMap((i) => {
          const s = world.pack.spawns[i];
          return s === undefined ? [] : [{ x: s.x, y: s.y }];
        }),
      );
  return { ...empty, recipes, stations, resources, npcs, shops, monsters };
}
