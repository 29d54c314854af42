import type { Draft } from "../engine/draft.js";
import { ToolFailure } from "../engine/draft.js";
import { addNewLot, countItem, hasRoom, moveItems, requireItems, takeItems } from "../engine/inventory.js";
import type { ToolArgs } from "./schemas.js";
import { connected, inView, travel } from "./travel.js";

export function transferItems(d: Draft, args: ToolArgs<"transfer_items">): string {
  let from = d.agent();
  if (d.s.agentIndex[args.to] === undefined) throw new ToolFailure("unknown_target", `no agent "${args.to}"`);
  let to = d.agent(args.to);
  if (to.id === from.id || to.team !== from.team)
    throw new ToolFailure("not_teammate", `${args.to} is not a teammate`);
  if (!d.world.item.has(args.item)) throw new ToolFailure("unknown_target", `no item "${args.item}"`);
  const qty = args.count ?? countItem(d, from, args.item);
  requireItems(d, from, [{ item: args.item, qty: Math.max(1, qty) }]);
  if (!hasRoom(d, to, args.item, qty))
    throw new ToolFailure("inventory_full", `${to.id} has no room for ${qty} ${args.item}`);
  if (!connected(d, from, to.x, to.y))
    throw new ToolFailure("unreachable", `${to.id} cannot be reached on foot`);
  from = travel(d, from, to.x, to.y);
  const seq = d.reserve();
  const moved = moveItems(d, from, to, args.item, qty, seq);
  from = moved.from;
  to = moved.to;
  d.putAgent(from);
  d.putAgent(to);
  d.emit("transferred", { to: to.id, item: args.item, qty, lots: moved.lots }, seq);
  return `gave ${qty} ${args.item} to ${to.id}`;
}

export function tradeNpc(d: Draft, args: ToolArgs<"trade_npc">): string {
  const npc = d.world.npc.get(args.npc);
  if (npc === undefined) throw new ToolFailure("unknown_target", `no NPC "${args.npc}"`);
  const item = d.world.item.get(args.item);
  if (item === undefined) throw new ToolFailure("unknown_target", `no item "${args.item}"`);
  let agent = d.agent();
  const count = args.count ?? 1;
  const isShop = npc.role === "shopkeeper";
  if ((args.action === "exchange") === isShop || (npc.role !== "shopkeeper" && npc.role !== "trader")) {
    const what =
      npc.role === "trader"
        ? "only makes exchanges"
        : npc.role === "shopkeeper"
          ? "buys and sells"
          : "does not trade";
    throw new ToolFailure("not_a_trader", `${npc.name} ${what}`);
  }
  if (!connected(d, agent, npc.x, npc.y))
    throw new ToolFailure("unreachable", `${npc.name} cannot be reached`);
  let give: { item: string; qty: number };
  let get: { item: string; qty: number };
  if (args.action === "buy") {
    const offer = npc.store?.find((s) => s.item === item.id);
    if (offer === undefined) throw new ToolFailure("not_in_stock", `${npc.name} does not sell ${item.id}`);
    give = { item: "coins", qty: offer.price * count };
    get = { item: item.id, qty: count };
    if (countItem(d, agent, "coins") < give.qty) {
      throw new ToolFailure(
        "insufficient_coins",
        `${count} ${item.id} cost ${give.qty} coins; you have ${countItem(d, agent, "coins")}`,
      );
    }
  } else if (args.action === "sell") {
    if (item.id === "coins") throw new ToolFailure("not_in_stock", "coins cannot be sold");
    give = { item: item.id, qty: count };
    get = { item: "coins", qty: Math.max(1, Math.floor(item.price / 2)) * count };
  } else {
    const trade = npc.trades?.find((t) => t.get.item === item.id);
    if (trade === undefined)
      throw new ToolFailure("not_in_stock", `${npc.name} has no exchange giving ${item.id}`);
    give = { item: trade.give.item, qty: trade.give.qty * count };
    get = { item: trade.get.item, qty: trade.get.qty * count };
  }
  requireItems(d, agent, [give]);
  agent = travel(d, agent, npc.x, npc.y);
  const taken = takeItems(d, agent, give.item, give.qty);
  if (!hasRoom(d, taken.agent, get.item, get.qty))
    throw new ToolFailure("inventory_full", `no room for ${get.qty} ${get.item}`);
  const seq = d.reserve();
  const added = addNewLot(
    d,
    taken.agent,
    get.item,
    get.qty,
    args.action === "buy" ? "buy" : "trade",
    seq,
    taken.parts,
  );
  d.putAgent(added.agent);
  d.emit(
    "traded",
    { npc: npc.id, action: args.action, gave: { ...give }, got: { ...get }, lot: added.lot.id },
    seq,
  );
  return `${args.action}: gave ${give.qty} ${give.item}, got ${get.qty} ${get.item}`;
}

export function chat(d: Draft, args: ToolArgs<"chat">): string {
  const me = d.agent();
  if (args.to !== undefined) {
    const idx = d.s.agentIndex[args.to];
    const other = idx === undefined ? undefined : d.s.agents.get(idx);
    if (other === undefined) throw new ToolFailure("unknown_target", `no agent "${args.to}"`);
    if (other.team !== me.team || other.id === me.id)
      throw new ToolFailure("not_teammate", `${args.to} is not a teammate`);
  }
  d.s.messages = d.s.messages.push({
    from: me.id,
    team: me.team,
    to: args.to ?? null,
    text: args.message,
    tick: d.s.tick,
  });
  d.emit("chat", { to: args.to ?? null, text: args.message });
  return `told ${args.to ?? "the team"}`;
}

export function moveTo(d: Draft, args: ToolArgs<"move_to">): string {
  const { map } = d.world;
  if (args.x < 0 || args.y < 0 || args.x >= map.width || args.y >= map.height) {
    throw new ToolFailure(
      "invalid_args",
      `(${args.x}, ${args.y}) is outside the ${map.width} × ${map.height} map`,
    );
  }
  if ((map.comp[args.y * map.width + args.x] ?? -1) < 0)
    throw new ToolFailure("blocked", `(${args.x}, ${args.y}) is not walkable`);
  const start = d.agent();
  const agent = travel(d, start, args.x, args.y, true);
  d.putAgent(agent);
  if (agent.x !== args.x || agent.y !== args.y)
    return `walked ${d.walked} tiles toward (${args.x}, ${args.y}) (the most one call allows); now at (${agent.x}, ${agent.y})`;
  return `now at (${agent.x}, ${agent.y})`;
}

export function enterPortal(d: Draft, args: ToolArgs<"enter_portal">): string {
  const portal = d.world.portal.get(args.portal);
  if (portal === undefined) throw new ToolFailure("unknown_target", `no portal or door "${args.portal}"`);
  let agent = d.agent();
  if (!inView(d, agent, portal.x, portal.y))
    throw new ToolFailure(
      "not_in_view",
      `${portal.name} is not within your view (${d.s.rules.viewRadius} tiles)`,
    );
  if (portal.requiresItem !== undefined && countItem(d, agent, portal.requiresItem) === 0) {
    throw new ToolFailure("locked", `${portal.name} needs ${portal.requiresItem}`);
  }
  agent = travel(d, agent, portal.x, portal.y);
  d.emit("portal", { portal: portal.id, from: [portal.x, portal.y], to: [portal.toX, portal.toY] });
  d.putAgent({ ...agent, x: portal.toX, y: portal.toY });
  return `went through ${portal.name} to (${portal.toX}, ${portal.toY})`;
}
