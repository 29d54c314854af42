import { InputError } from "../../core/index.js";
import { type ContentPack, PACK_FILES, type PackKey } from "../model/schema.js";
import { type TileMap, walkable } from "../model/tilemap.js";
import { maxBuyBack, purchaseCosts } from "./prices.js";

/** Which entry of which file an error is about, as people read it: `items.json: entry 3 ("iron_bar")`. */
function fail(key: PackKey, raw: unknown, index: number | null, field: string, detail: string): never {
  const file = `${key}.json`;
  let where = "";
  if (index !== null) {
    const entry = Array.isArray(raw) ? raw[index] : undefined;
    const id = entry !== null && typeof entry === "object" && "id" in entry ? String(entry.id) : "";
    where = ` entry ${index}${id === "" ? "" : ` ("${id}")`}:`;
  }
  throw new InputError(
    file,
    undefined,
    field,
    `${where}${field === "" ? "" : ` ${field}:`} ${detail}`.trimStart(),
  );
}

/** Parses every file of a pack with its schema, then checks that references resolve. */
export function validatePack(raw: Partial<Record<PackKey, unknown>>): ContentPack {
  const parsed: Partial<Record<PackKey, unknown>> = {};
  for (const key of Object.keys(PACK_FILES) as PackKey[]) {
    const value = raw[key];
    if (value === undefined) fail(key, value, null, "", "file is missing");
    const result = PACK_FILES[key].safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      const path = issue?.path ?? [];
      const index = Array.isArray(value) && typeof path[0] === "number" ? path[0] : null;
      const field = (index === null ? path : path.slice(1)).map(String).join(".");
      fail(key, value, index, field, issue?.message ?? "invalid");
    }
    parsed[key] = result.data;
  }
  const pack = parsed as ContentPack;
  checkReferences(pack);
  return pack;
}

function checkReferences(pack: ContentPack): void {
  const ids = (key: PackKey, list: ReadonlyArray<{ id: string }>): Set<string> => {
    const seen = new Set<string>();
    list.forEach((e, i) => {
      if (seen.has(e.id)) fail(key, list, i, "id", `duplicate id "${e.id}"`);
      seen.add(e.id);
    });
    return seen;
  };
  const items = ids("items", pack.items);
  const biomes = ids("biomes", pack.biomes);
  const resources = ids("resources", pack.resources);
  const mobs = ids("mobs", pack.mobs);
  for (const key of [
    "recipes",
    "npcs",
    "portals",
    "stations",
    "nodes",
    "spawns",
    "landmarks",
    "loot",
  ] as const)
    ids(key, pack[key]);
  const item = (key: PackKey, list: unknown, i: number, field: string, id: string | undefined): void => {
    if (id !== undefined && !items.has(id)) fail(key, list, i, field, `unknown item "${id}"`);
  };
  pack.items.forEach((it, i) => {
    const needsSlot = it.type === "weapon" || it.type === "armour" || it.type === "jewellery";
    if (needsSlot && it.slot === undefined) fail("items", pack.items, i, "slot", `a ${it.type} needs a slot`);
    if (it.type === "tool" && it.toolFor === undefined)
      fail("items", pack.items, i, "toolFor", "a tool needs toolFor");
    if ((it.type === "food" || it.type === "potion") && it.heal === undefined)
      fail("items", pack.items, i, "heal", "food heals");
  });
  const outputs = new Set<string>();
  pack.recipes.forEach((r, i) => {
    r.inputs.forEach((s, k) => {
      item("recipes", pack.recipes, i, `inputs.${k}.item`, s.item);
    });
    item("recipes", pack.recipes, i, "output.item", r.output.item);
    if (outputs.has(r.output.item))
      fail("recipes", pack.recipes, i, "output.item", `second recipe for "${r.output.item}"`);
    outputs.add(r.output.item);
  });
  pack.resources.forEach((r, i) => {
    item("resources", pack.resources, i, "yield.item", r.yield.item);
    r.biomes.forEach((b, k) => {
      if (!biomes.has(b)) fail("resources", pack.resources, i, `biomes.${k}`, `unknown biome "${b}"`);
    });
  });
  pack.mobs.forEach((m, i) => {
    if (!biomes.has(m.biome)) fail("mobs", pack.mobs, i, "biome", `unknown biome "${m.biome}"`);
    m.drops.forEach((d, k) => {
      item("mobs", pack.mobs, i, `drops.${k}.item`, d.item);
      if (d.min > d.max) fail("mobs", pack.mobs, i, `drops.${k}`, `min ${d.min} > max ${d.max}`);
    });
  });
  pack.npcs.forEach((n, i) => {
    n.store?.forEach((s, k) => {
      item("npcs", pack.npcs, i, `store.${k}.item`, s.item);
    });
    n.buys?.forEach((s, k) => {
      item("npcs", pack.npcs, i, `buys.${k}.item`, s.item);
    });
    n.trades?.forEach((t, k) => {
      item("npcs", pack.npcs, i, `trades.${k}.give.item`, t.give.item);
      item("npcs", pack.npcs, i, `trades.${k}.get.item`, t.get.item);
    });
    n.quest?.stages.forEach((stage, k) => {
      stage.ask.forEach((a, j) => {
        item("npcs", pack.npcs, i, `quest.stages.${k}.ask.${j}.item`, a.item);
      });
      stage.reward.forEach((r, j) => {
        item("npcs", pack.npcs, i, `quest.stages.${k}.reward.${j}.item`, r.item);
      });
    });
    if (n.role === "shopkeeper" && (n.store ?? []).length === 0)
      fail("npcs", pack.npcs, i, "store", "a shopkeeper needs a store");
    if (n.role === "quest_giver" && n.quest === undefined)
      fail("npcs", pack.npcs, i, "quest", "a quest giver needs a quest");
  });
  pack.loot.forEach((l, i) => {
    item("loot", pack.loot, i, "item", l.item);
  });
  checkPrices(pack);
  pack.portals.forEach((p, i) => {
    item("portals", pack.portals, i, "requiresItem", p.requiresItem);
  });
  pack.landmarks.forEach((l, i) => {
    if (!biomes.has(l.biome)) fail("landmarks", pack.landmarks, i, "biome", `unknown biome "${l.biome}"`);
  });
  pack.nodes.forEach((n, i) => {
    if (!resources.has(n.resource))
      fail("nodes", pack.nodes, i, "resource", `unknown resource "${n.resource}"`);
  });
  pack.spawns.forEach((s, i) => {
    if (!mobs.has(s.mob)) fail("spawns", pack.spawns, i, "mob", `unknown mob "${s.mob}"`);
  });
}

/**
 * The economy must not make money from nothing: no shop pays more for an item than the cheapest
 * way to buy it or make it from bought inputs, no exchange turns bought goods into more coins than
 * they cost, and quests ask only for things coins cannot buy (a quest rewards work, not shopping).
 */
function checkPrices(pack: ContentPack): void {
  const costs = purchaseCosts(pack);
  const price = new Map(pack.items.map((it) => [it.id, it.price]));
  if ((costs.get("coins") ?? 1) < 1 - 1e-9) {
    const i = pack.npcs.findIndex((n) => (n.trades ?? []).some((t) => t.get.item === "coins"));
    fail(
      "npcs",
      pack.npcs,
      Math.max(0, i),
      "trades",
      "exchanges turn bought goods into more coins than they cost",
    );
  }
  pack.npcs.forEach((n, i) => {
    n.store?.forEach((s, k) => {
      if (s.buy === undefined) return;
      const limit = maxBuyBack(costs, s.item, s.price);
      if (s.buy > limit)
        fail(
          "npcs",
          pack.npcs,
          i,
          `store.${k}.buy`,
          `pays ${s.buy} for ${s.item}, more than ${limit} (half its price, or what it costs to make from bought inputs): buying, crafting and selling would make money`,
        );
    });
    n.buys?.forEach((b, k) => {
      const limit = maxBuyBack(costs, b.item, price.get(b.item) ?? 0);
      if (b.price > limit)
        fail(
          "npcs",
          pack.npcs,
          i,
          `buys.${k}.price`,
          `pays ${b.price} for ${b.item}, more than ${limit} (half its price, or what it costs to make from bought inputs): buying, crafting and selling would make money`,
        );
    });
    n.quest?.stages.forEach((stage, k) => {
      stage.ask.forEach((a, j) => {
        if (costs.has(a.item))
          fail(
            "npcs",
            pack.npcs,
            i,
            `quest.stages.${k}.ask.${j}.item`,
            `${a.item} can be bought (or made from bought goods); quests ask for what must be gathered, looted or earned`,
          );
      });
    });
  });
}

/** Everything placed on the map must stand on a walkable tile inside the map. */
export function validatePlacements(pack: ContentPack, map: TileMap): void {
  const at = (key: PackKey, list: ReadonlyArray<{ x: number; y: number }>, field = ""): void => {
    list.forEach((e, i) => {
      if (!walkable(map, e.x, e.y))
        fail(key, list, i, field || "x,y", `(${e.x}, ${e.y}) is not a walkable tile`);
    });
  };
  at("npcs", pack.npcs);
  at("stations", pack.stations);
  at("nodes", pack.nodes);
  at("spawns", pack.spawns);
  at("portals", pack.portals);
  at("loot", pack.loot);
  at(
    "portals",
    pack.portals.map((p) => ({ ...p, x: p.toX, y: p.toY })),
    "toX,toY",
  );
  if (!walkable(map, pack.world.spawn.x, pack.world.spawn.y))
    fail("world", pack.world, null, "spawn", "not walkable");
}
