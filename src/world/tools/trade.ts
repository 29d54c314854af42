import type { NpcDef, StoreEntry } from "../model/schema.js";
import type { AgentState, EconomyState, JsonValue, Lot, LotOriginKind, WorldState } from "../model/types.js";
import type { Draft } from "../state/draft.js";
import { ToolFailure } from "../state/draft.js";
import { addNewLot, countItem, hasRoom, requireItems, takeItems } from "../state/inventory.js";

type Stack = { item: string; qty: number };

/** The economy part of a state, empty until someone first deals with an NPC. */
export function economyOf(s: WorldState): EconomyState {
  return s.economy ?? { stock: {}, quests: {}, banks: {} };
}

/** Units of a store entry the shop holds now (the pack's stock until someone trades it). */
export function stockOf(s: WorldState, npc: NpcDef, entry: StoreEntry): number {
  return economyOf(s).stock[`${npc.id}/${entry.item}`] ?? entry.stock;
}

function setStock(d: Draft, npc: NpcDef, item: string, qty: number): void {
  const e = economyOf(d.s);
  d.s.economy = { ...e, stock: { ...e.stock, [`${npc.id}/${item}`]: qty } };
}

/** Buy from a shop's finite stock, or sell it something it lists (it then resells it). */
export function shopTrade(
  d: Draft,
  npc: NpcDef,
  action: "buy" | "sell",
  item: string,
  count: number,
): { agent: AgentState; message: string } {
  const agent = d.agent();
  const entry = npc.store?.find((s) => s.item === item);
  const stock = entry === undefined ? 0 : stockOf(d.s, npc, entry);
  if (action === "buy") {
    if (entry === undefined) throw new ToolFailure("not_in_stock", `${npc.name} does not sell ${item}`);
    if (stock < count)
      throw new ToolFailure(
        "not_in_stock",
        stock === 0
          ? `${npc.name} has sold out of ${item} (shops do not restock)`
          : `${npc.name} has only ${stock} ${item}`,
      );
    const give = { item: "coins", qty: entry.price * count };
    const have = countItem(d, agent, "coins");
    if (have < give.qty)
      throw new ToolFailure(
        "insufficient_coins",
        `${count} ${item} cost ${give.qty} coins; you have ${have}`,
      );
    const out = swap(d, agent, npc, give, { item, qty: count }, "buy", { action, stock: stock - count });
    setStock(d, npc, item, stock - count);
    return out;
  }
  const raw = npc.buys?.find((b) => b.item === item);
  if (entry?.buy === undefined && raw === undefined) {
    const buys = [
      ...(npc.store ?? []).filter((s) => s.buy !== undefined).map((s) => s.item),
      ...(npc.buys ?? []).map((b) => b.item),
    ];
    throw new ToolFailure(
      "not_in_stock",
      `${npc.name} does not buy ${item}${buys.length > 0 ? ` (buys: ${buys.join(", ")})` : ""}`,
    );
  }
  if (entry?.buy !== undefined) {
    const get = { item: "coins", qty: entry.buy * count };
    const out = swap(d, agent, npc, { item, qty: count }, get, "trade", { action, stock: stock + count });
    setStock(d, npc, item, stock + count);
    return out;
  }
  // Raw goods the shop buys leave the game (they are not resold).
  return swap(
    d,
    agent,
    npc,
    { item, qty: count },
    { item: "coins", qty: (raw?.price ?? 0) * count },
    "trade",
    {
      action,
    },
  );
}

/** A trader's fixed exchange; `item` is what the agent gets. */
export function exchange(
  d: Draft,
  npc: NpcDef,
  item: string,
  count: number,
): { agent: AgentState; message: string } {
  const trade = npc.trades?.find((t) => t.get.item === item);
  if (trade === undefined)
    throw new ToolFailure("not_in_stock", `${npc.name} has no exchange giving ${item}`);
  const give = { item: trade.give.item, qty: trade.give.qty * count };
  const get = { item: trade.get.item, qty: trade.get.qty * count };
  return swap(d, d.agent(), npc, give, get, "trade", { action: "exchange" });
}

/**
 * Hands `give` to the NPC and receives `get` as new lots made from what was given (so their
 * provenance names the coins or goods paid). The agent must already stand next to the NPC.
 */
export function swap(
  d: Draft,
  agent: AgentState,
  npc: NpcDef,
  give: Stack | readonly Stack[],
  get: Stack | readonly Stack[],
  kind: LotOriginKind,
  extra: Record<string, string | number>,
  type = "traded",
): { agent: AgentState; message: string } {
  const gives = list(give);
  const gets = list(get);
  requireItems(d, agent, gives);
  let next = agent;
  const parts: Lot["from"] = [];
  for (const g of gives) {
    const taken = takeItems(d, next, g.item, g.qty);
    next = taken.agent;
    parts.push(...taken.parts);
  }
  const seq = d.reserve();
  const lots: number[] = [];
  for (const g of gets) {
    if (!hasRoom(d, next, g.item, g.qty))
      throw new ToolFailure("inventory_full", `no room for ${g.qty} ${g.item}`);
    const added = addNewLot(d, next, g.item, g.qty, kind, seq, parts);
    next = added.agent;
    lots.push(added.lot.id);
  }
  const one = (xs: Stack[]): JsonValue =>
    xs.length === 1 ? { ...(xs[0] as Stack) } : xs.map((x) => ({ ...x }));
  d.emit(type, { npc: npc.id, ...extra, gave: one(gives), got: one(gets), lots }, seq);
  const text = (xs: Stack[]): string => xs.map((x) => `${x.qty} ${x.item}`).join(" + ");
  return { agent: next, message: `${String(extra.action)}: gave ${text(gives)}, got ${text(gets)}` };
}

function list(x: Stack | readonly Stack[]): Stack[] {
  return Array.isArray(x) ? [...(x as readonly Stack[])] : [x as Stack];
}
