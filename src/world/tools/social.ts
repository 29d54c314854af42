import type { NpcDef } from "../model/schema.js";
import type { ToolArgs } from "../model/tool-args.js";
import type { Draft } from "../state/draft.js";
import { ToolFailure } from "../state/draft.js";
import { countItem, hasRoom, moveItems, requireItems } from "../state/inventory.js";
import { deposit, doQuest, withdraw } from "./npc-services.js";
import { exchange, shopTrade } from "./trade.js";
import { connected, inView, travel } from "./travel.js";

/** Under the no-comm rule agents neither talk nor hand items over: the call is refused. */
function refuseWithoutComm(d: Draft, what: string): void {
  if (d.s.rules.noComm === true)
    throw new ToolFailure("no_communication", `${what} is not allowed in this run (no communication)`);
}

export function transferItems(d: Draft, args: ToolArgs<"transfer_items">): string {
  refuseWithoutComm(d, "giving items to a teammate");
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

/** Which NPC role serves each `trade_npc` action. */
const SERVES: Record<ToolArgs<"trade_npc">["action"], NpcDef["role"]> = {
  buy: "shopkeeper",
  sell: "shopkeeper",
  exchange: "trader",
  deposit: "banker",
  withdraw: "banker",
  quest: "quest_giver",
};

const OFFERS: Record<NpcDef["role"], string> = {
  shopkeeper: "buys and sells",
  trader: "only makes exchanges",
  banker: "keeps the team bank (deposit, withdraw)",
  quest_giver: "gives a quest (quest)",
};

/** Walks to an NPC and deals with it: shops, traders, bankers and quest givers. */
export function tradeNpc(d: Draft, args: ToolArgs<"trade_npc">): string {
  const npc = d.world.npc.get(args.npc);
  if (npc === undefined) throw new ToolFailure("unknown_target", `no NPC "${args.npc}"`);
  if (SERVES[args.action] !== npc.role)
    throw new ToolFailure("not_a_trader", `${npc.name} ${OFFERS[npc.role]}; it cannot ${args.action}`);
  let item = "";
  if (args.action !== "quest") {
    if (args.item === undefined) throw new ToolFailure("invalid_args", `${args.action} needs an item`);
    if (!d.world.item.has(args.item)) throw new ToolFailure("unknown_target", `no item "${args.item}"`);
    if (args.action === "sell" && args.item === "coins")
      throw new ToolFailure("not_in_stock", "coins cannot be sold");
    item = args.item;
  }
  const agent = d.agent();
  if (!connected(d, agent, npc.x, npc.y))
    throw new ToolFailure("unreachable", `${npc.name} cannot be reached`);
  d.putAgent(travel(d, agent, npc.x, npc.y));
  const count = args.count ?? 1;
  const out =
    args.action === "buy" || args.action === "sell"
      ? shopTrade(d, npc, args.action, item, count)
      : args.action === "exchange"
        ? exchange(d, npc, item, count)
        : args.action === "deposit"
          ? deposit(d, npc, item, args.count)
          : args.action === "withdraw"
            ? withdraw(d, npc, item, args.count)
            : doQuest(d, npc);
  d.putAgent(out.agent);
  return out.message;
}

export function chat(d: Draft, args: ToolArgs<"chat">): string {
  refuseWithoutComm(d, "chat");
  // Under the shared-plan rule the team talks only before anyone has acted a round (tick 0).
  if (d.s.rules.sharedPlan === true && d.s.tick > 0)
    throw new ToolFailure(
      "no_communication",
      `chat is allowed only in round 0 in this run (shared plan); it is tick ${d.s.tick}`,
    );
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
