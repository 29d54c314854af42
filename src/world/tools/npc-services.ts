import type { NpcDef } from "../model/schema.js";
import type { AgentState, Lot } from "../model/types.js";
import type { Draft } from "../state/draft.js";
import { ToolFailure } from "../state/draft.js";
import { countItem, hasRoom, requireItems } from "../state/inventory.js";
import { economyOf, swap } from "./trade.js";

/** Quest stages a team has completed with a quest giver. */
export function questStage(d: Draft, team: string, npc: NpcDef): number {
  return economyOf(d.s).quests[`${team}/${npc.id}`] ?? 0;
}

/**
 * Hands in the items the current stage asks for and takes its reward; the team moves on to the
 * next stage. Without the items the call fails with what the stage asks (so asking is free).
 */
export function doQuest(d: Draft, npc: NpcDef): { agent: AgentState; message: string } {
  const agent = d.agent();
  const quest = npc.quest;
  if (quest === undefined) throw new ToolFailure("not_a_trader", `${npc.name} has no quest`);
  const done = questStage(d, agent.team, npc);
  const stage = quest.stages[done];
  const total = quest.stages.length;
  if (stage === undefined)
    throw new ToolFailure(
      "target_gone",
      `${npc.name}'s quest is finished for your team (${total} of ${total} stages)`,
    );
  const list = (xs: ReadonlyArray<{ item: string; qty: number }>): string =>
    xs.map((x) => `${x.qty} ${x.item}`).join(" + ");
  const short = stage.ask.filter((a) => countItem(d, agent, a.item) < a.qty);
  if (short.length > 0)
    throw new ToolFailure(
      "missing_items",
      `${npc.name} (stage ${done + 1} of ${total}: "${quest.text}") asks for ${list(stage.ask)} and rewards ${list(stage.reward)}; you have ${short.map((a) => `${countItem(d, agent, a.item)} ${a.item}`).join(", ")}`,
    );
  const out = swap(
    d,
    agent,
    npc,
    stage.ask,
    stage.reward,
    "trade",
    { action: "quest", stage: done + 1 },
    "quest",
  );
  const e = economyOf(d.s);
  d.s.economy = { ...e, quests: { ...e.quests, [`${agent.team}/${npc.id}`]: done + 1 } };
  return {
    agent: out.agent,
    message: `quest stage ${done + 1} of ${total} done: gave ${list(stage.ask)}, got ${list(stage.reward)}`,
  };
}

/**
 * Puts items in the team's bank (any banker reaches the same bank). Whole lots move; a lot
 * handed in partly is split, the new lot naming the old one, so provenance survives the bank.
 */
export function deposit(
  d: Draft,
  npc: NpcDef,
  item: string,
  count: number | undefined,
): { agent: AgentState; message: string } {
  const agent = d.agent();
  const qty = count ?? countItem(d, agent, item);
  requireItems(d, agent, [{ item, qty: Math.max(1, qty) }]);
  const holder = `bank:${agent.team}`;
  const seq = d.reserve();
  const moved = moveLots(d, agent.inventory, item, qty, seq, agent.id, holder);
  const e = economyOf(d.s);
  const bank = [...(e.banks[agent.team] ?? []), ...moved.lots];
  d.s.economy = { ...e, banks: { ...e.banks, [agent.team]: bank } };
  d.emit("banked", { npc: npc.id, action: "deposit", item, qty, lots: moved.lots }, seq);
  return { agent: { ...agent, inventory: moved.keep }, message: `deposited ${qty} ${item} in the team bank` };
}

/** Takes items out of the team's bank. */
export function withdraw(
  d: Draft,
  npc: NpcDef,
  item: string,
  count: number | undefined,
): { agent: AgentState; message: string } {
  const agent = d.agent();
  const e = economyOf(d.s);
  const bank = e.banks[agent.team] ?? [];
  const inBank = bank.reduce((n, id) => n + (d.lot(id).item === item ? d.lot(id).qty : 0), 0);
  const qty = count ?? inBank;
  if (qty === 0 || inBank < qty)
    throw new ToolFailure(
      "missing_items",
      `the team bank holds ${inBank} ${item}${qty > 0 ? `, not ${qty}` : ""}`,
    );
  if (!hasRoom(d, agent, item, qty)) throw new ToolFailure("inventory_full", `no room for ${qty} ${item}`);
  const seq = d.reserve();
  const moved = moveLots(d, bank, item, qty, seq, `bank:${agent.team}`, `agent:${agent.id}`);
  d.s.economy = { ...e, banks: { ...e.banks, [agent.team]: moved.keep } };
  d.emit("banked", { npc: npc.id, action: "withdraw", item, qty, lots: moved.lots }, seq);
  return {
    agent: { ...agent, inventory: [...agent.inventory, ...moved.lots] },
    message: `withdrew ${qty} ${item} from the team bank`,
  };
}

/** Moves `qty` of `item` out of a list of lots to a new holder, splitting the last lot if needed. */
function moveLots(
  d: Draft,
  source: readonly number[],
  item: string,
  qty: number,
  event: number,
  from: string,
  holder: string,
): { keep: number[]; lots: number[] } {
  let left = qty;
  const keep: number[] = [];
  const lots: number[] = [];
  const to = holder.replace(/^agent:/, "");
  for (const id of source) {
    const lot = d.lot(id);
    if (left === 0 || lot.item !== item) {
      keep.push(id);
      continue;
    }
    const n = Math.min(left, lot.qty);
    const transfer = { event, from, to, qty: n };
    left -= n;
    if (n === lot.qty) {
      d.putLot({ ...lot, holder, transfers: [...lot.transfers, transfer] });
      lots.push(id);
    } else {
      const part: Lot = d.newLot(item, n, "split", event, [{ lot: id, qty: n }], holder);
      d.putLot({ ...part, origin: { ...part.origin, by: lot.origin.by }, transfers: [transfer] });
      d.putLot({ ...lot, qty: lot.qty - n });
      lots.push(part.id);
      keep.push(id);
    }
  }
  if (left > 0) throw new ToolFailure("missing_items", `missing ${item} (need ${qty})`);
  return { keep, lots };
}
