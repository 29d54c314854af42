import type { World } from "../../build/world.js";
import type { Observation } from "../../engine/observe.js";
import type { ToolCall } from "../../model/tool-args.js";
import type { Line } from "./protocol.js";
import { held } from "./steps.js";

/** What the agent has done so far, counted from its own results. */
export interface Tally {
  crafted: Map<string, number>;
  gathered: Map<string, number>;
  /** `item>to` for hand-overs, `item>npc` for sales. */
  gave: Map<string, number>;
  /** Inputs its crafts used up; items it bought. */
  consumed: Map<string, number>;
  bought: Map<string, number>;
  /** Regions it has stood in (`x,y,w,h`). */
  visited: Set<string>;
  kills: Array<{ id: string; kind: string; tick: number; at: { x: number; y: number } }>;
}

export function newTally(): Tally {
  return {
    crafted: new Map(),
    gathered: new Map(),
    gave: new Map(),
    consumed: new Map(),
    bought: new Map(),
    visited: new Set(),
    kills: [],
  };
}

const add = (m: Map<string, number>, k: string, q: number): void => {
  m.set(k, (m.get(k) ?? 0) + q);
};

/**
 * Books what a successful call did (crafts and the inputs they used, harvests, purchases,
 * hand-overs, sales, kills); returns the line announcing a hand-over, if it was one.
 */
export function recordSuccess(
  world: World,
  t: Tally,
  c: ToolCall,
  message: string,
  obs: Observation,
): Line | null {
  const a = c.args;
  const str = (k: string): string => (typeof a[k] === "string" ? a[k] : "");
  const count = typeof a.count === "number" ? a.count : 1;
  const got = /^(crafted|harvested|gave) (\d+) ([a-z0-9_]+)/.exec(message);
  const qty = Number(got?.[2] ?? 0);
  const item = got?.[3] ?? "";
  if (c.tool === "craft_item" && got !== null) {
    add(t.crafted, item, qty);
    for (const i of world.recipeFor.get(item)?.inputs ?? []) add(t.consumed, i.item, i.qty * count);
  } else if (c.tool === "use_item") add(t.consumed, str("item"), 1);
  else if (c.tool === "trade_npc" && a.action === "buy") add(t.bought, str("item"), count);
  else if (c.tool === "trade_npc" && a.action === "sell") add(t.gave, `${str("item")}>${str("npc")}`, count);
  else if (c.tool === "harvest_resource" && got !== null) add(t.gathered, item, qty);
  else if (c.tool === "transfer_items" && got !== null) {
    add(t.gave, `${item}>${str("to")}`, qty);
    return { kind: "gave", item, qty, to: str("to") };
  } else if (c.tool === "attack_entity" && message.startsWith("killed")) {
    const id = str("target");
    const idx = world.spawnIndex.get(id);
    const spawn = idx === undefined ? undefined : world.pack.spawns[idx];
    t.kills.push({
      id,
      kind: spawn?.mob ?? id,
      tick: obs.tick,
      at: spawn === undefined ? obs.position : { x: spawn.x, y: spawn.y },
    });
  }
  return null;
}

/**
 * How much of an item teammates handed the agent, from its own books: what it holds, wears and has
 * used up or passed on, less what it started with (a warrior's food, say) and made, gathered or
 * bought. Worn items count: a shield handed over and then put on is still one received.
 */
export function fromTeam(t: Tally, kit: ReadonlyMap<string, number>, obs: Observation, item: string): number {
  const n = (m: ReadonlyMap<string, number>): number => m.get(item) ?? 0;
  let out = 0;
  for (const [k, q] of t.gave) if (k.startsWith(`${item}>`)) out += q;
  const inward = held(obs, item) + worn(obs, item) + n(t.consumed) + out;
  return inward - n(kit) - n(t.crafted) - n(t.gathered) - n(t.bought);
}

/** How many of the agent's equipment slots hold the item. */
export function worn(obs: Observation, item: string): number {
  return Object.values(obs.equipment).filter((i) => i === item).length;
}

/** What the agent has at its first turn, held and worn: what it did not receive. */
export function startingKit(obs: Observation): Map<string, number> {
  const kit = new Map<string, number>();
  for (const s of obs.inventory) kit.set(s.item, (kit.get(s.item) ?? 0) + s.qty);
  for (const i of Object.values(obs.equipment)) if (i !== undefined) kit.set(i, (kit.get(i) ?? 0) + 1);
  return kit;
}
