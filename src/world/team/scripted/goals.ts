import type { WorldPredicate } from "../../task/schema.js";
import type { Point } from "./knowledge.js";

/**
 * One thing the task's predicates ask for, as work for one agent. `agent` is the agent that must
 * do it (a predicate naming one), or undefined: a team goal that the first able agent claims.
 */
export type Goal =
  | { kind: "hold"; item: string; qty: number; agent?: string; made?: true }
  | { kind: "craft"; item: string; qty: number; agent?: string }
  | { kind: "gather"; item: string; qty: number; agent?: string }
  | { kind: "equip"; item: string; agent?: string }
  | { kind: "deliver"; item: string; qty: number; to: string; from?: string; at: Point }
  | { kind: "sell"; item: string; qty: number; npc: string; agent?: string }
  | { kind: "kill"; mob: string; qty: number; agent?: string }
  | { kind: "visit"; region: { x: number; y: number; w: number; h: number }; agent?: string };

/** A goal's text: its key in claims ("take deliver 2 pine_log to merchant") and in logs. */
export function goalKey(g: Goal): string {
  switch (g.kind) {
    case "deliver":
      return `deliver ${g.qty} ${g.item} to ${g.to}`;
    case "sell":
      return `sell ${g.qty} ${g.item} to ${g.npc}`;
    case "kill":
      return `kill ${g.qty} ${g.mob}`;
    case "visit":
      return `visit ${g.region.x},${g.region.y},${g.region.w},${g.region.h}`;
    case "equip":
      return `equip ${g.item}`;
    default:
      return `${g.kind} ${g.qty} ${g.item}`;
  }
}

export interface GoalSources {
  success: WorldPredicate;
  checkpoints: ReadonlyArray<{ predicate: WorldPredicate }>;
  /** Where each agent starts: a hand-over to it is made there. */
  start: (agent: string) => Point;
  /** The run's id for an agent a predicate names (under merged, the merged agent). */
  runId: (agent: string) => string;
  /** A placed mob's kind, so a goal on a kind is seen to be covered by one on its id. */
  kindOf: (mob: string) => string;
  merged: boolean;
}

/**
 * The goals of the success predicate and the checkpoints, in that order, each once. `all` is
 * split, `any` takes its first part; `not`, `all_alive`, `within_rounds` and custom predicates
 * ask for no work (they are returned in `unplanned`, so the team can say what it ignores). A team
 * goal is dropped when an agent's goal of the same kind already covers it.
 */
export function goalsOf(src: GoalSources): { goals: Goal[]; unplanned: string[] } {
  const out: Goal[] = [];
  const unplanned: string[] = [];
  const visit = (p: WorldPredicate): void => {
    if ("all" in p) for (const q of p.all) visit(q);
    else if ("any" in p) {
      if (p.any[0] !== undefined) visit(p.any[0]);
    } else if ("not" in p) unplanned.push("not (…)");
    else if ("custom" in p) unplanned.push(`custom ${p.custom}`);
    else if ("all_alive" in p || "within_rounds" in p) return;
    else if ("holds" in p) out.push({ kind: "hold", ...agentOf(p.holds, src) });
    else if ("crafted" in p) out.push({ kind: "craft", ...agentOf(p.crafted, src) });
    else if ("gathered" in p) out.push({ kind: "gather", ...agentOf(p.gathered, src) });
    else if ("equipped" in p) out.push({ kind: "equip", ...agentOf(p.equipped, src) });
    else if ("killed" in p) out.push({ kind: "kill", ...agentOf(p.killed, src) });
    else if ("visited" in p) out.push({ kind: "visit", ...agentOf(p.visited, src) });
    else {
      const d = p.delivered;
      if (d.npc !== undefined)
        out.push({
          kind: "sell",
          item: d.item,
          qty: d.qty,
          npc: d.npc,
          ...(d.from === undefined ? {} : { agent: src.runId(d.from) }),
        });
      else if (d.to !== undefined && src.merged)
        // One agent hands nothing over: the hand-over counts for what it makes itself.
        out.push({ kind: "hold", item: d.item, qty: d.qty, agent: src.runId(d.to), made: true });
      else if (d.to !== undefined)
        out.push({
          kind: "deliver",
          item: d.item,
          qty: d.qty,
          to: d.to,
          ...(d.from === undefined ? {} : { from: d.from }),
          at: src.start(d.to),
        });
    }
  };
  visit(src.success);
  for (const c of src.checkpoints) visit(c.predicate);
  const goals: Goal[] = [];
  for (const g of out) if (!goals.some((h) => covers(h, g, src))) goals.push(g);
  return { goals: goals.filter((g) => !goals.some((h) => h !== g && covers(h, g, src))), unplanned };
}

function agentOf<T extends { agent?: string | undefined }>(
  body: T,
  src: GoalSources,
): Omit<T, "agent"> & { agent?: string } {
  const { agent, ...rest } = body;
  return agent === undefined ? rest : { ...rest, agent: src.runId(agent) };
}

/** Whether goal `h` already asks for everything `g` asks for (same kind, same or more). */
function covers(h: Goal, g: Goal, src: GoalSources): boolean {
  if (h.kind !== g.kind) return false;
  if (g.kind === "deliver" && h.kind === "deliver")
    return (
      h.item === g.item && h.to === g.to && h.qty >= g.qty && (g.from === undefined || g.from === h.from)
    );
  if (g.kind === "kill" && h.kind === "kill") {
    const same = h.mob === g.mob || src.kindOf(h.mob) === g.mob;
    return same && h.qty >= g.qty && (g.agent === undefined || g.agent === h.agent);
  }
  if (g.kind === "sell" && h.kind === "sell")
    return (
      h.item === g.item && h.npc === g.npc && h.qty >= g.qty && (g.agent === undefined || g.agent === h.agent)
    );
  if (g.kind === "visit" && h.kind === "visit") return goalKey(h) === goalKey(g) && g.agent === h.agent;
  if ((g.kind === "hold" || g.kind === "craft" || g.kind === "gather") && h.kind === g.kind)
    return h.item === g.item && h.qty >= g.qty && (g.agent === undefined || g.agent === h.agent);
  if (g.kind === "equip" && h.kind === "equip")
    return h.item === g.item && (g.agent === undefined || g.agent === h.agent);
  return false;
}
