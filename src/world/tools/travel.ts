import type { World } from "../build/world.js";
import type { AgentState } from "../model/types.js";
import type { Draft } from "../state/draft.js";
import { ToolFailure } from "../state/draft.js";
import { equipmentOf } from "../state/equipment.js";

/**
 * Walks the agent to (x, y) along a path (or fails with `unreachable`) and records the move.
 * All walking in one call shares a budget of `rules.maxMoveTiles`: a walk that would exceed it
 * fails with `too_far`, unless `partial` is set, in which case the agent walks as far as the
 * budget allows along the path and stops there.
 */
export function travel(d: Draft, agent: AgentState, x: number, y: number, partial = false): AgentState {
  if (agent.x === x && agent.y === y) return agent;
  const path = d.world.paths.find(agent.x, agent.y, x, y);
  if (path === null)
    throw new ToolFailure("unreachable", `no walking path from (${agent.x}, ${agent.y}) to (${x}, ${y})`);
  const budget = d.s.rules.maxMoveTiles - d.walked;
  if (path.cost <= budget) {
    d.walked += path.cost;
    d.emit("moved", { from: [agent.x, agent.y], to: [x, y], steps: path.cost, waypoints: path.waypoints });
    return { ...agent, x, y };
  }
  if (!partial || budget <= 0) {
    throw new ToolFailure(
      "too_far",
      `(${x}, ${y}) is ${path.cost} tiles away on foot; a call walks at most ${d.s.rules.maxMoveTiles} (${Math.max(0, budget)} left): move closer first`,
    );
  }
  const stop = walkPart(d.world, path.waypoints, budget);
  d.walked += stop.steps;
  d.emit("moved", {
    from: [agent.x, agent.y],
    to: [stop.x, stop.y],
    steps: stop.steps,
    waypoints: stop.waypoints,
    toward: [x, y],
  });
  return { ...agent, x: stop.x, y: stop.y };
}

/** The tile `budget` steps along a path (legs are expanded one by one, only as far as needed). */
function walkPart(
  world: World,
  waypoints: ReadonlyArray<[number, number]>,
  budget: number,
): { x: number; y: number; steps: number; waypoints: Array<[number, number]> } {
  const first = waypoints[0] ?? [0, 0];
  const taken: Array<[number, number]> = [[first[0], first[1]]];
  let here: [number, number] = [first[0], first[1]];
  let steps = 0;
  for (let k = 1; k < waypoints.length && steps < budget; k++) {
    const leg = world.paths.refine([here, waypoints[k] ?? here]);
    for (let i = 1; i < leg.length && steps < budget; i++) {
      here = leg[i] ?? here;
      steps++;
    }
    taken.push([here[0], here[1]]);
  }
  return { x: here[0], y: here[1], steps, waypoints: taken };
}

/** True when (x, y) is within the agent's view radius (Chebyshev), the same one its observation uses. */
export function inView(d: Draft, agent: AgentState, x: number, y: number): boolean {
  return Math.max(Math.abs(agent.x - x), Math.abs(agent.y - y)) <= d.s.rules.viewRadius;
}

export function mobAlive(d: Draft, index: number): boolean {
  const m = d.s.mobs.get(index);
  return m !== undefined && (m.respawnAt < 0 || m.respawnAt <= d.s.tick);
}

/** Where a mob stands now (its spawn point until it has moved). */
export function mobAt(d: Draft, index: number): { x: number; y: number } {
  const m = d.s.mobs.get(index);
  const spawn = d.world.pack.spawns[index];
  return { x: m?.x ?? spawn?.x ?? 0, y: m?.y ?? spawn?.y ?? 0 };
}

export function equipmentStats(d: Draft, agent: AgentState): { attack: number; defence: number } {
  return equipmentOf(d.world, d.s, agent);
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
