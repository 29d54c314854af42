import type { Draft } from "../engine/draft.js";
import { ToolFailure } from "../engine/draft.js";
import type { AgentState } from "../engine/types.js";
import { staticNear } from "../world.js";

/**
 * Walks the agent to (x, y) along a path (or fails with `unreachable`) and records the move.
 * Aggressive monsters near the destination get one strike at the agent on arrival.
 */
export function travel(d: Draft, agent: AgentState, x: number, y: number): AgentState {
  if (agent.x === x && agent.y === y) return agent;
  const path = d.world.paths.find(agent.x, agent.y, x, y);
  if (path === null)
    throw new ToolFailure("unreachable", `no walking path from (${agent.x}, ${agent.y}) to (${x}, ${y})`);
  d.emit("moved", {
    from: [agent.x, agent.y],
    to: [x, y],
    steps: path.cost,
    waypoints: path.waypoints,
  });
  return aggro(d, { ...agent, x, y });
}

function aggro(d: Draft, agent: AgentState): AgentState {
  let a = agent;
  for (const e of staticNear(d.world, a.x, a.y, 6)) {
    if (e.kind !== "mob") continue;
    const spawn = d.world.pack.spawns[e.index];
    const def = spawn === undefined ? undefined : d.world.mob.get(spawn.mob);
    if (spawn === undefined || def === undefined || !def.aggressive) continue;
    if (Math.max(Math.abs(spawn.x - a.x), Math.abs(spawn.y - a.y)) > def.aggroRange) continue;
    if (!mobAlive(d, e.index)) continue;
    const defence = d.levelOf(a, "defence") + equipmentStats(d, a).defence;
    const hit = d.rng.next() < def.attack / (def.attack + defence + 1);
    const damage = hit ? 1 + d.rng.int(0, Math.floor(def.attack / 6)) : 0;
    d.emit("aggro", { mob: spawn.id, kind: def.id, damage });
    a = { ...a, hp: Math.max(1, a.hp - damage) };
  }
  return a;
}

export function mobAlive(d: Draft, index: number): boolean {
  const m = d.s.mobs.get(index);
  return m !== undefined && (m.respawnAt < 0 || m.respawnAt <= d.s.tick);
}

export function equipmentStats(d: Draft, agent: AgentState): { attack: number; defence: number } {
  let attack = 0;
  let defence = 0;
  for (const lotId of Object.values(agent.equipment)) {
    const item = d.world.item.get(d.lot(lotId).item);
    attack += item?.stats.attack ?? 0;
    defence += item?.stats.defence ?? 0;
  }
  return { attack, defence };
}

/** Candidates sorted by straight-line distance from the agent, ties broken by index. */
export function byDistance<T extends { x: number; y: number }>(
  agent: AgentState,
  list: ReadonlyArray<[number, T]>,
): Array<[number, T]> {
  const keyed = list.map((e) => ({ e, d: Math.abs(e[1].x - agent.x) + Math.abs(e[1].y - agent.y) }));
  keyed.sort((a, b) => a.d - b.d || a.e[0] - b.e[0]);
  return keyed.map((k) => k.e);
}

/** True when the agent and the tile are on the same walkable region (a path exists). */
export function connected(d: Draft, agent: AgentState, x: number, y: number): boolean {
  const { map } = d.world;
  const c = map.comp[agent.y * map.width + agent.x];
  return c !== undefined && c >= 0 && c === map.comp[y * map.width + x];
}
