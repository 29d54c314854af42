import type { World } from "../build/world.js";
import type { AgentState, WorldEvent, WorldState } from "../model/types.js";
import { evalPredicate, held } from "../task/predicates.js";
import type { WorldPredicate, WorldTaskSpec } from "../task/schema.js";

/** How far (Chebyshev tiles) a stated position may be from where the thing is: one step either way. */
export const POSITION_TOLERANCE = 1;

/** A fact checked against one state: whether it held, and what the state says. */
export interface Check {
  holds: boolean;
  detail: string;
}

export function agentIn(state: WorldState, id: string): AgentState | undefined {
  const i = state.agentIndex[id];
  return i === undefined ? undefined : state.agents.get(i);
}

const near = (ax: number, ay: number, x: number, y: number): boolean =>
  Math.max(Math.abs(ax - x), Math.abs(ay - y)) <= POSITION_TOLERANCE;

const alive = (state: WorldState, spawn: number): boolean => {
  const m = state.mobs.get(spawn);
  return m !== undefined && !(m.respawnAt >= 0 && m.respawnAt > state.tick);
};

/** Whether a stated thing's kind is static (its position never changes). */
export function isStatic(world: World, entity: string): boolean {
  return world.npc.has(entity) || world.portal.has(entity);
}

/**
 * "E at (x,y)" against a state: an agent or placed mob where it stands, an NPC or portal where
 * the pack puts it, a mob kind with a live mob there, a resource kind with a harvest point there
 * that is not depleted, an item lying there. Null when E names none of these.
 */
export function checkPosition(
  world: World,
  state: WorldState,
  entity: string,
  x: number,
  y: number,
): Check | null {
  const agent = agentIn(state, entity);
  if (agent !== undefined)
    return { holds: near(agent.x, agent.y, x, y), detail: `${entity} is at (${agent.x},${agent.y})` };
  const fixed = world.npc.get(entity) ?? world.portal.get(entity);
  if (fixed !== undefined)
    return { holds: near(fixed.x, fixed.y, x, y), detail: `${entity} is at (${fixed.x},${fixed.y})` };
  const spawn = world.spawnIndex.get(entity);
  if (spawn !== undefined) {
    const m = state.mobs.get(spawn);
    if (m === undefined) return null;
    const live = alive(state, spawn);
    return {
      holds: live && near(m.x, m.y, x, y),
      detail: live ? `${entity} is at (${m.x},${m.y})` : `${entity} is dead`,
    };
  }
  if (world.mob.has(entity)) {
    const live = (world.spawnsOf.get(entity) ?? []).filter((i) => {
      const m = state.mobs.get(i);
      return m !== undefined && alive(state, i) && near(m.x, m.y, x, y);
    });
    return { holds: live.length > 0, detail: `${live.length === 0 ? "no" : "a"} live ${entity} there` };
  }
  if (world.resource.has(entity)) {
    const points = (world.nodesOf.get(entity) ?? []).filter((i) => {
      const p = world.pack.nodes[i];
      return p !== undefined && near(p.x, p.y, x, y);
    });
    const ready = points.filter((i) => (state.nodes.get(i) ?? 0) <= state.tick);
    const detail =
      points.length === 0
        ? `no ${entity} there`
        : ready.length === 0
          ? `the ${entity} there is depleted`
          : `a ${entity} there`;
    return { holds: ready.length > 0, detail };
  }
  if (world.item.has(entity)) {
    let found = false;
    state.ground.forEach((g) => {
      if (g !== null && near(g.x, g.y, x, y) && state.lots.get(g.lot)?.item === entity) found = true;
    });
    return { holds: found, detail: `${found ? "some" : "no"} ${entity} lying there` };
  }
  return null;
}

/** "A has N item": exactly N in A's inventory and equipment. Null for an unknown agent or item. */
export function checkHolds(
  world: World,
  state: WorldState,
  agent: string,
  item: string,
  qty: number,
): Check | null {
  if (agentIn(state, agent) === undefined || !world.item.has(item)) return null;
  const n = held(state, item, [agent]);
  return { holds: n === qty, detail: `${agent} holds ${n} ${item}` };
}

/** Units of `item` the sender has handed to `to` before the state (transferred events). */
export function handedOver(
  events: readonly WorldEvent[],
  before: number,
  from: string,
  to: string,
  item: string,
): number {
  let n = 0;
  for (const e of events) {
    if (e.seq >= before) break;
    if (e.type === "transferred" && e.agent === from && e.data.to === to && e.data.item === item)
      n += typeof e.data.qty === "number" ? e.data.qty : 0;
  }
  return n;
}

/** A goal key of the scripted protocol ("deliver 2 pine_log to merchant") as a predicate for `agent`. */
export function goalPredicate(key: string, agent: string): WorldPredicate | null {
  const w = key.trim().split(/\s+/);
  const [kind, a, b] = w;
  const qty = Number(a);
  const counted = Number.isInteger(qty) && qty > 0 && b !== undefined;
  if (kind === "deliver" && counted && w[3] === "to" && w[4] !== undefined && w.length === 5)
    return { delivered: { item: b, qty, to: w[4], from: agent } };
  if (kind === "sell" && counted && w[3] === "to" && w[4] !== undefined && w.length === 5)
    return { delivered: { item: b, qty, npc: w[4], from: agent } };
  if (w.length !== 3 || !counted) {
    if (kind === "equip" && a !== undefined && w.length === 2) return { equipped: { item: a, agent } };
    if (kind === "visit" && a !== undefined && w.length === 2) {
      const [x, y, rw, rh] = a.split(",").map(Number);
      if ([x, y, rw, rh].every((v) => Number.isInteger(v)))
        return { visited: { region: { x: x ?? 0, y: y ?? 0, w: rw ?? 1, h: rh ?? 1 }, agent } };
    }
    return null;
  }
  if (kind === "kill") return { killed: { mob: b, qty } };
  if (kind === "craft") return { crafted: { item: b, qty, agent } };
  if (kind === "gather") return { gathered: { item: b, qty, agent } };
  if (kind === "hold") return { holds: { item: b, qty, agent } };
  return null;
}

/** The success and checkpoint predicates (leaves of `all`) that name `agent` as doer, holder or receiver. */
export function agentPredicates(spec: WorldTaskSpec, agent: string): WorldPredicate[] {
  const out: WorldPredicate[] = [];
  const names = (p: WorldPredicate): boolean => {
    const body = Object.values(p)[0] as { agent?: unknown; from?: unknown; to?: unknown } | undefined;
    return typeof body === "object" && body !== null && [body.agent, body.from, body.to].includes(agent);
  };
  const visit = (p: WorldPredicate): void => {
    if ("all" in p) for (const q of p.all) visit(q);
    else if (
      !("any" in p) &&
      !("not" in p) &&
      names(p) &&
      !out.some((q) => JSON.stringify(q) === JSON.stringify(p))
    )
      out.push(p);
  };
  visit(spec.success);
  for (const c of spec.checkpoints) visit(c.predicate);
  return out;
}

/** Predicates evaluated at the moment a call was made: the state then and the events before it. */
export function checkPredicates(
  spec: WorldTaskSpec,
  world: World,
  state: WorldState,
  events: readonly WorldEvent[],
  preds: readonly WorldPredicate[],
): Check {
  const seen = events.filter((e) => e.seq < state.seq);
  const failed = preds
    .map((p) => evalPredicate(p, { spec, world, state, events: seen }))
    .filter((r) => !r.holds);
  return failed.length === 0
    ? { holds: true, detail: "its goal predicates hold" }
    : { holds: false, detail: failed.map((r) => r.detail).join("; ") };
}
