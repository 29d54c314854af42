import type { PVec } from "./pvec.js";
import type { WorldRules } from "./rules.js";
import type { Skill, Slot } from "./schema.js";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** How a lot came to exist. `split` lots are part of an older lot handed on separately. */
export type LotOriginKind = "start" | "harvest" | "craft" | "loot" | "buy" | "trade" | "split";

/**
 * A quantity of one item with its full history: the event that produced it, the lots (and how
 * much of each) it was made from, and every hand-over since. Lots are never merged, so any item
 * in any inventory traces back to its origins.
 */
export interface Lot {
  id: number;
  item: string;
  /** Quantity when produced. */
  created: number;
  /** Quantity still held (0 once used up). */
  qty: number;
  origin: { event: number; kind: LotOriginKind; by: string | null };
  from: Array<{ lot: number; qty: number }>;
  transfers: Array<{ event: number; from: string; to: string; qty: number }>;
  /** `agent:<id>`, `equipped:<id>`, `bank:<team>`, `ground`, or `used`. */
  holder: string;
}

export interface Message {
  from: string;
  team: string;
  /** One teammate, or null for the whole team. */
  to: string | null;
  text: string;
  tick: number;
}

export interface ToolError {
  code: ToolErrorCode;
  message: string;
}

export type ToolResult =
  | { ok: true; tool: string; message: string }
  | { ok: false; tool: string; error: ToolError };

export const TOOL_ERROR_CODES = [
  "invalid_args",
  "tool_not_allowed",
  "task_complete",
  "unknown_target",
  "unreachable",
  "blocked",
  "target_gone",
  "missing_skill",
  "missing_tool",
  "missing_items",
  "inventory_full",
  "unknown_recipe",
  "no_station",
  "not_teammate",
  "not_a_trader",
  "not_in_stock",
  "insufficient_coins",
  "not_equippable",
  "not_usable",
  "locked",
  "defeated",
  "not_in_view",
  "too_far",
  "no_communication",
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export interface AgentState {
  id: string;
  role: string;
  team: string;
  x: number;
  y: number;
  hp: number;
  maxHp: number;
  skills: Partial<Record<Skill, { level: number; xp: number }>>;
  /** Lot ids held, oldest first. */
  inventory: number[];
  equipment: Partial<Record<Slot, number>>;
  /** Messages before this index of the message log were shown on an earlier turn. */
  readUpTo: number;
  lastResult: ToolResult | null;
  allowedTools: string[];
  deaths: number;
  /** Set when the agent called `complete`: it is offline from then on (its turns are skipped). */
  completed: { tick: number; summary: string } | null;
  /** After a defeat: the first tick at which the agent acts again (its turns before are skipped). */
  downUntil: number;
}

export interface MobState {
  hp: number;
  /** Tick at which a killed mob comes back; -1 while alive. */
  respawnAt: number;
  /** Where it stands (mobs chase agents, within a leash of their spawn point). */
  x: number;
  y: number;
}

export interface GroundItem {
  id: string;
  lot: number;
  x: number;
  y: number;
}

/**
 * What NPC dealings changed (only entries that differ from the content pack are present, so a
 * world nobody traded in has none of it): shop stock, quest progress and team banks.
 */
export interface EconomyState {
  /** `<npc>/<item>` → units the shop holds now. */
  stock: Record<string, number>;
  /** `<team>/<npc>` → quest stages the team has completed. */
  quests: Record<string, number>;
  /** team → lot ids in its bank (shared by the team, reachable at any banker), oldest first. */
  banks: Record<string, number[]>;
}

export interface WorldState {
  version: 2;
  seed: number;
  tick: number;
  /** Sequence number the next event gets. */
  seq: number;
  rng: [number, number, number, number];
  agents: PVec<AgentState>;
  agentIndex: Record<string, number>;
  /** Per harvest point: the tick until which it is depleted. */
  nodes: PVec<number>;
  mobs: PVec<MobState>;
  lots: PVec<Lot>;
  /** Items lying on the map; picked-up entries become null. */
  ground: PVec<GroundItem | null>;
  /** Every chat message, in order; a message costs one append however many receive it. */
  messages: PVec<Message>;
  rules: WorldRules;
  /** Absent until an agent first trades, takes a quest stage or uses a bank. */
  economy?: EconomyState;
}

export interface WorldEvent {
  seq: number;
  tick: number;
  agent: string | null;
  type: string;
  /** Seq of the tool call ("action" event) this event belongs to. */
  action: number | null;
  data: { [key: string]: JsonValue };
}

export interface StepResult {
  state: WorldState;
  events: WorldEvent[];
  result: ToolResult;
}

/** An inventory capacity in slots; each item takes ceil(total / stackSize) slots. */
export const INVENTORY_SLOTS = 28;
