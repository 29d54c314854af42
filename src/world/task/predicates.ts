import type { World } from "../build/world.js";
import type { WorldEvent, WorldState } from "../model/types.js";
import { isMerged, runAgentId, runAgentIds } from "./merge.js";
import type { WorldPredicate, WorldTaskSpec } from "./schema.js";

/** What a predicate looks at: the task, the world, the final state and every event of the run. */
export interface PredicateContext {
  spec: WorldTaskSpec;
  world: World;
  state: WorldState;
  events: readonly WorldEvent[];
}

/** A predicate's outcome with a one-line explanation ("team holds 2/3 iron_bar"). */
export interface PredicateResult {
  holds: boolean;
  detail: string;
}

export type CustomWorldPredicate = (ctx: PredicateContext, args: Record<string, unknown>) => PredicateResult;

const registry = new Map<string, CustomWorldPredicate>();

/**
 * Registers a TypeScript predicate for `{ custom: name, args }` in task files. Register before
 * loading the tasks that use it: loading rejects unknown names.
 */
export function registerWorldPredicate(name: string, fn: CustomWorldPredicate): void {
  registry.set(name, fn);
}

export function hasWorldPredicate(name: string): boolean {
  return registry.has(name);
}

/** Evaluates a predicate; never throws for well-formed tasks (custom predicates may). */
export function evalPredicate(p: WorldPredicate, ctx: PredicateContext): PredicateResult {
  if ("all" in p) return combine(p.all, ctx, "all");
  if ("any" in p) return combine(p.any, ctx, "any");
  if ("not" in p) {
    const r = evalPredicate(p.not, ctx);
    return { holds: !r.holds, detail: `not (${r.detail})` };
  }
  if ("holds" in p) {
    const { item, qty, agent } = p.holds;
    const have = held(ctx.state, item, agent === undefined ? teamIds(ctx) : [runId(ctx, agent)]);
    return count(have >= qty, `${who(ctx, agent, "team")} holds`, have, qty, item);
  }
  if ("equipped" in p) {
    const { item, agent } = p.equipped;
    const wearers = (agent === undefined ? teamIds(ctx) : [runId(ctx, agent)]).filter((a) =>
      equippedItems(ctx.state, a).includes(item),
    );
    return {
      holds: wearers.length > 0,
      detail:
        wearers.length > 0
          ? `${wearers.join(", ")} ha${wearers.length === 1 ? "s" : "ve"} ${item} equipped`
          : `${agent === undefined ? "nobody in the team has" : `${agent} has no`} ${item} equipped`,
    };
  }
  if ("crafted" in p) {
    const { item, qty, agent } = p.crafted;
    const n = sumEvents(ctx, "crafted", agent, (d) => (d.item === item ? num(d.qty) : 0));
    return count(n >= qty, `${who(ctx, agent, "team")} crafted`, n, qty, item);
  }
  if ("gathered" in p) {
    const { item, qty, agent } = p.gathered;
    const n = sumEvents(ctx, "harvested", agent, (d) => (d.item === item ? num(d.qty) : 0));
    return count(n >= qty, `${who(ctx, agent, "team")} gathered`, n, qty, item);
  }
  if ("killed" in p) {
    const { mob, qty, agent } = p.killed;
    const n = sumEvents(ctx, "killed", agent, (d) => (d.kind === mob || d.mob === mob ? 1 : 0));
    return count(n >= qty, `${who(ctx, agent, "team")} killed`, n, qty, mob);
  }
  if ("delivered" in p) {
    const { item, qty, to, npc, from } = p.delivered;
    const n =
      to !== undefined && isMerged(ctx.spec)
        ? mergedHandOver(ctx, item)
        : to !== undefined
          ? sumEvents(ctx, "transferred", from, (d) => (d.to === to && d.item === item ? num(d.qty) : 0))
          : sumEvents(ctx, "traded", from, (d) => {
              const gave = d.gave;
              if (d.npc !== npc || typeof gave !== "object" || gave === null || Array.isArray(gave)) return 0;
              return gave.item === item ? num(gave.qty) : 0;
            });
    return count(n >= qty, `${who(ctx, from, "team")} delivered to ${to ?? npc}`, n, qty, item);
  }
  if ("visited" in p) return visitedRegion(p.visited, ctx);
  if ("all_alive" in p) {
    const down = teamIds(ctx).filter((a) => agentOf(ctx.state, a)?.deaths !== 0);
    return {
      holds: down.length === 0,
      detail: down.length === 0 ? "no agent was defeated" : `defeated: ${down.join(", ")}`,
    };
  }
  if ("within_rounds" in p) {
    // Rounds used: up to the last agent's completion when all declared it, else the rounds played.
    const done = teamIds(ctx).map((a) => agentOf(ctx.state, a)?.completed ?? null);
    const used = done.every((d) => d !== null)
      ? Math.max(...done.map((d) => (d?.tick ?? 0) + 1))
      : ctx.state.tick;
    return {
      holds: used <= p.within_rounds,
      detail: `finished in ${used}/${p.within_rounds} rounds`,
    };
  }
  const fn = registry.get(p.custom);
  if (fn === undefined) return { holds: false, detail: `custom predicate "${p.custom}" is not registered` };
  return fn(ctx, p.args);
}

function combine(list: readonly WorldPredicate[], ctx: PredicateContext, op: "all" | "any"): PredicateResult {
  const results = list.map((q) => evalPredicate(q, ctx));
  const holds = op === "all" ? results.every((r) => r.holds) : results.some((r) => r.holds);
  // Every part is listed with its mark, so a failure says what is missing.
  return { holds, detail: `${op}(${results.map((r) => `${r.holds ? "✓" : "✗"} ${r.detail}`).join("; ")})` };
}

function count(holds: boolean, what: string, have: number, want: number, item: string): PredicateResult {
  return { holds, detail: `${what} ${have}/${want} ${item}` };
}

function who(ctx: PredicateContext, agent: string | undefined, fallback: string): string {
  if (agent === undefined) return fallback;
  // Under merged the member is named too, so a checkpoint's detail still says whose part it was.
  return isMerged(ctx.spec) ? `${runId(ctx, agent)} (as ${agent})` : agent;
}

function num(v: unknown): number {
  return typeof v === "number" ? v : 0;
}

/** The agents of the run (under `merged`, the merged agent alone). */
function teamIds(ctx: PredicateContext): string[] {
  return runAgentIds(ctx.spec);
}

/** The agent a task's agent id stands for in the run (under `merged`, the merged agent). */
function runId(ctx: PredicateContext, agent: string): string {
  return runAgentId(ctx.spec, agent);
}

/**
 * A hand-over to a member, in a merged team: giver and receiver are the same agent, so nothing
 * needs handing over. It counts as done for as much of the item as the merged agent gathered or
 * crafted itself (an item bought, picked up or carried from the start does not count).
 */
function mergedHandOver(ctx: PredicateContext, item: string): number {
  const made = (d: WorldEvent["data"]) => (d.item === item ? num(d.qty) : 0);
  return sumEvents(ctx, "harvested", undefined, made) + sumEvents(ctx, "crafted", undefined, made);
}

function agentOf(state: WorldState, id: string) {
  const i = state.agentIndex[id];
  return i === undefined ? undefined : state.agents.get(i);
}

/** Quantity of `item` in lots held or worn by the given agents. */
export function held(state: WorldState, item: string, agents: readonly string[]): number {
  const holders = new Set(agents.flatMap((a) => [`agent:${a}`, `equipped:${a}`]));
  let n = 0;
  state.lots.forEach((lot) => {
    if (lot.item === item && holders.has(lot.holder)) n += lot.qty;
  });
  return n;
}

function equippedItems(state: WorldState, agent: string): string[] {
  const a = agentOf(state, agent);
  if (a === undefined) return [];
  return Object.values(a.equipment).map((lot) => state.lots.get(lot)?.item ?? "");
}

function sumEvents(
  ctx: PredicateContext,
  type: string,
  agent: string | undefined,
  f: (data: WorldEvent["data"]) => number,
): number {
  let n = 0;
  for (const e of ctx.events)
    if (e.type === type && (agent === undefined || e.agent === runId(ctx, agent))) n += f(e.data);
  return n;
}

/**
 * Where agents stood: their final positions, every move's destination and waypoints, portal
 * exits and respawn points (the engine records no tile-by-tile path, so the ground walked
 * between waypoints does not count).
 */
function visitedRegion(
  v: { region: { x: number; y: number; w: number; h: number }; agent?: string | undefined },
  ctx: PredicateContext,
): PredicateResult {
  const { x, y, w, h } = v.region;
  const inside = (p: unknown): boolean =>
    Array.isArray(p) &&
    typeof p[0] === "number" &&
    typeof p[1] === "number" &&
    p[0] >= x &&
    p[0] < x + w &&
    p[1] >= y &&
    p[1] < y + h;
  const agents = v.agent === undefined ? teamIds(ctx) : [runId(ctx, v.agent)];
  const found = new Set<string>();
  for (const id of agents) {
    const a = agentOf(ctx.state, id);
    if (a !== undefined && inside([a.x, a.y])) found.add(id);
  }
  for (const e of ctx.events) {
    if (e.agent === null || !agents.includes(e.agent) || found.has(e.agent)) continue;
    const d = e.data;
    const points =
      e.type === "moved"
        ? [d.to, ...(Array.isArray(d.waypoints) ? d.waypoints : [])]
        : e.type === "portal"
          ? [d.to]
          : e.type === "agent_defeated"
            ? [d.respawn]
            : [];
    if (points.some(inside)) found.add(e.agent);
  }
  const where = `(${x},${y} ${w}×${h})`;
  return {
    holds: found.size > 0,
    detail:
      found.size > 0
        ? `${[...found].join(", ")} visited ${where}`
        : `${v.agent === undefined ? "no team member visited" : `${v.agent} did not visit`} ${where}`,
  };
}
