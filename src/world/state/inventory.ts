import { type AgentState, INVENTORY_SLOTS, type Lot, type LotOriginKind } from "../model/types.js";
import type { Draft } from "./draft.js";
import { ToolFailure } from "./draft.js";

/** Total quantity of `item` the agent carries (not counting equipped items). */
export function countItem(d: Draft, agent: AgentState, item: string): number {
  let n = 0;
  for (const id of agent.inventory) {
    const lot = d.lot(id);
    if (lot.item === item) n += lot.qty;
  }
  return n;
}

/** Slots used if `extra` more of `extraItem` were added. */
export function slotsUsed(d: Draft, agent: AgentState, extraItem?: string, extra = 0): number {
  const totals = new Map<string, number>();
  for (const id of agent.inventory) {
    const lot = d.lot(id);
    totals.set(lot.item, (totals.get(lot.item) ?? 0) + lot.qty);
  }
  if (extraItem !== undefined) totals.set(extraItem, (totals.get(extraItem) ?? 0) + extra);
  let slots = 0;
  for (const [item, qty] of totals) slots += Math.ceil(qty / (d.world.item.get(item)?.stackSize ?? 1));
  return slots;
}

export function hasRoom(d: Draft, agent: AgentState, item: string, qty: number): boolean {
  return slotsUsed(d, agent, item, qty) <= INVENTORY_SLOTS;
}

export function requireItems(
  d: Draft,
  agent: AgentState,
  needs: ReadonlyArray<{ item: string; qty: number }>,
): void {
  const missing = needs
    .map((n) => ({ ...n, have: countItem(d, agent, n.item) }))
    .filter((n) => n.have < n.qty)
    .map((n) => `${n.item} (have ${n.have}, need ${n.qty})`);
  if (missing.length > 0) throw new ToolFailure("missing_items", `missing ${missing.join(", ")}`);
}

/**
 * Takes `qty` of `item` from the agent's inventory, oldest lots first, marking what was used.
 * Returns the updated agent and which lots supplied how much (for provenance).
 */
export function takeItems(
  d: Draft,
  agent: AgentState,
  item: string,
  qty: number,
): { agent: AgentState; parts: Lot["from"] } {
  const parts: Lot["from"] = [];
  let left = qty;
  const keep: number[] = [];
  for (const id of agent.inventory) {
    const lot = d.lot(id);
    if (left > 0 && lot.item === item) {
      const used = Math.min(left, lot.qty);
      left -= used;
      parts.push({ lot: id, qty: used });
      const rest = lot.qty - used;
      d.putLot({ ...lot, qty: rest, holder: rest === 0 ? "used" : lot.holder });
      if (rest > 0) keep.push(id);
    } else keep.push(id);
  }
  if (left > 0) throw new ToolFailure("missing_items", `missing ${item} (need ${qty})`);
  return { agent: { ...agent, inventory: keep }, parts };
}

/** A new lot in the agent's inventory (or on the ground at its feet when there is no room). */
export function addNewLot(
  d: Draft,
  agent: AgentState,
  item: string,
  qty: number,
  kind: LotOriginKind,
  event: number,
  from: Lot["from"],
): { agent: AgentState; lot: Lot; onGround: boolean } {
  if (hasRoom(d, agent, item, qty)) {
    const lot = d.newLot(item, qty, kind, event, from, `agent:${agent.id}`);
    return { agent: { ...agent, inventory: [...agent.inventory, lot.id] }, lot, onGround: false };
  }
  const lot = d.newLot(item, qty, kind, event, from, "ground");
  dropLot(d, lot.id, agent.x, agent.y);
  return { agent, lot, onGround: true };
}

export function dropLot(d: Draft, lot: number, x: number, y: number): string {
  const id = `g${d.s.ground.length}`;
  d.s.ground = d.s.ground.push({ id, lot, x, y });
  return id;
}

/**
 * Moves `qty` of `item` from one agent to another. Whole lots change holder; a partly handed-over
 * lot is split, the new lot naming the old one as its source. Every moved lot records the hand-over.
 */
export function moveItems(
  d: Draft,
  from: AgentState,
  to: AgentState,
  item: string,
  qty: number,
  event: number,
): { from: AgentState; to: AgentState; lots: number[] } {
  let left = qty;
  const keep: number[] = [];
  const moved: number[] = [];
  for (const id of from.inventory) {
    const lot = d.lot(id);
    if (left === 0 || lot.item !== item) {
      keep.push(id);
      continue;
    }
    const transfer = { event, from: from.id, to: to.id, qty: Math.min(left, lot.qty) };
    if (lot.qty <= left) {
      left -= lot.qty;
      d.putLot({ ...lot, holder: `agent:${to.id}`, transfers: [...lot.transfers, transfer] });
      moved.push(id);
    } else {
      const part = d.newLot(item, left, "split", event, [{ lot: id, qty: left }], `agent:${to.id}`);
      d.putLot({ ...part, origin: { ...part.origin, by: lot.origin.by }, transfers: [transfer] });
      d.putLot({ ...lot, qty: lot.qty - left });
      moved.push(part.id);
      keep.push(id);
      left = 0;
    }
  }
  if (left > 0) throw new ToolFailure("missing_items", `missing ${item} (need ${qty})`);
  return {
    from: { ...from, inventory: keep },
    to: { ...to, inventory: [...to.inventory, ...moved] },
    lots: moved,
  };
}

/** Items grouped for display: item id → quantity. */
export function inventorySummary(d: Draft, agent: AgentState): Array<{ item: string; qty: number }> {
  const totals = new Map<string, number>();
  for (const id of agent.inventory) {
    const lot = d.lot(id);
    totals.set(lot.item, (totals.get(lot.item) ?? 0) + lot.qty);
  }
  return [...totals].map(([item, qty]) => ({ item, qty }));
}
