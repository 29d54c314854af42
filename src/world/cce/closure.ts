import type { WorldEvent } from "../model/types.js";
import { InformationIndex } from "./information.js";
import { type ActionRecord, holderAfter, lotActions, lotsNamed, type RunLog } from "./log.js";

/** Why a call is in the closure (the first reason found, in the order the tracer meets them). */
export const CLOSURE_REASONS = [
  "witness",
  "item",
  "equipment",
  "wounds",
  "tool",
  "skill",
  "portal",
  "position",
  "information",
] as const;
export type ClosureReason = (typeof CLOSURE_REASONS)[number];

/** What the tracer needs to know of the world beyond the event log (all optional). */
export interface ClosureContext {
  /** Items that serve as the tool of a harvest of this resource kind. */
  toolsFor?: (resource: string) => readonly string[];
  /** The skill level an effect needed (a recipe's or resource's level), or null. */
  needs?: (e: WorldEvent) => { skill: string; level: number } | null;
  /** The key item a portal or door needs, or null. */
  keyFor?: (portal: string) => string | null;
  /** What each agent knew before the run (goal, role document, teammates): never credited to a message. */
  prior?: Readonly<Record<string, string>>;
  /** Each agent's team (a team message reaches the sender's teammates); default: one team. */
  team?: Readonly<Record<string, string>>;
}

export interface Closure {
  /** Action seqs of the success witnesses. */
  witnesses: number[];
  /** Action seq → why it is in the closure. */
  members: Map<number, ClosureReason>;
}

/** Calls that leave the caller where it stood (failed calls too): skipped when tracing positioning. */
const STAY = new Set(["wait", "chat", "equip_item", "use_item", "complete"]);

/**
 * The exact backward closure of the witnesses over the event log: a call is in it when it is a
 * witness, or a call in it depends on it by one of the rules of docs/world.md ("Causal
 * contribution"). The log's order (event seqs) is the real order of the calls, within a round too.
 */
export function traceClosure(log: RunLog, witnesses: readonly number[], ctx: ClosureContext = {}): Closure {
  const info = new InformationIndex(log, ctx.prior ?? {}, ctx.team ?? {});
  const members = new Map<number, ClosureReason>();
  const queue: Array<[number, ClosureReason]> = witnesses.map((w) => [w, "witness"]);
  while (queue.length > 0) {
    const [seq, why] = queue.pop() ?? [0, "witness"];
    if (members.has(seq)) continue;
    const a = log.bySeq.get(seq);
    if (a === undefined) continue;
    members.set(seq, why);
    for (const [dep, reason] of dependencies(log, a, ctx, info))
      if (!members.has(dep)) queue.push([dep, reason]);
  }
  return { witnesses: [...new Set(witnesses)].sort((x, y) => x - y), members };
}

/** The calls call `a` directly depends on, each with the rule that makes it a dependency. */
export function dependencies(
  log: RunLog,
  a: ActionRecord,
  ctx: ClosureContext,
  info: InformationIndex,
): Array<[number, ClosureReason]> {
  const out: Array<[number, ClosureReason]> = [];
  const add = (set: Iterable<number>, why: ClosureReason): void => {
    for (const s of set) if (s !== a.seq) out.push([s, why]);
  };
  const effects = log.effects.get(a.seq) ?? [];
  const before = log.events.filter((e) => e.seq < a.seq);
  // Items: every lot the call made, used up, handed over, wore or traded, back to its origins.
  const items = new Set<number>();
  for (const e of effects) for (const lot of lotsNamed(e)) lotActions(log, lot, a.seq, items);
  add(items, "item");
  const byMe = (e: WorldEvent): boolean => e.agent === a.agent && e.action !== null;
  for (const e of effects) {
    if (e.type === "fight") {
      // Equipment worn in the fight: the latest equip per slot before it.
      const worn = new Map<string, WorldEvent>();
      for (const x of before) if (x.type === "equipped" && byMe(x)) worn.set(String(x.data.slot), x);
      add(
        [...worn.values()].flatMap((x) => (x.action === null ? [] : [x.action])),
        "equipment",
      );
      // Wounds: earlier fights against the same mob since it was last killed.
      const wounds: number[] = [];
      for (const x of before) {
        if (x.data.mob !== e.data.mob || x.action === null) continue;
        if (x.type === "killed") wounds.length = 0;
        else if (x.type === "fight" && x.data.killed !== true) wounds.push(x.action);
      }
      add(wounds, "wounds");
    }
    if (e.type === "harvested" && ctx.toolsFor !== undefined && typeof e.data.resource === "string")
      add(heldLotsActions(log, a, ctx.toolsFor(e.data.resource)), "tool");
    const need = ctx.needs?.(e) ?? null;
    if (need !== null) {
      // The call whose level-up reached the level needed (none when the agent started with it).
      const up = before.find(
        (x) => x.type === "level_up" && byMe(x) && x.data.skill === need.skill && x.data.level === need.level,
      );
      if (up?.action != null) add([up.action], "skill");
    }
    if (e.type === "portal" && ctx.keyFor !== undefined && typeof e.data.portal === "string") {
      const key = ctx.keyFor(e.data.portal);
      if (key !== null) add(heldLotsActions(log, a, [key]), "item");
    }
  }
  // Where the caller stood matters only to calls that act somewhere (not to talking, waiting,
  // equipping or eating). Portals: its latest portal before the call put it on this side.
  // Position: its own moves just before the call, back to its previous call that ended somewhere
  // of its own (skipping calls that leave it in place).
  if (!STAY.has(a.tool)) {
    const mine = log.actions.filter((x) => x.agent === a.agent && x.seq < a.seq);
    const portal = mine.findLast((x) => x.ok && x.tool === "enter_portal");
    if (portal !== undefined) add([portal.seq], "portal");
    const moves: number[] = [];
    for (let i = mine.length - 1; i >= 0; i--) {
      const x = mine[i];
      if (x === undefined) break;
      if (!x.ok || STAY.has(x.tool)) continue;
      if (x.tool !== "move_to") break;
      moves.push(x.seq);
    }
    add(moves, "position");
  }
  add(info.sources(a), "information");
  return out;
}

/** The calls behind the lots of `items` the caller held when it made the call (tools, keys). */
function heldLotsActions(log: RunLog, a: ActionRecord, items: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const lot of log.lots.values())
    if (items.includes(lot.item) && holderAfter(log, lot, a.seq - 1) === a.agent)
      lotActions(log, lot.id, a.seq, out);
  return out;
}
