import { Rng } from "../../core/index.js";
import type { World } from "../build/world.js";
import { walkable } from "../model/tilemap.js";
import type { AgentState, MobState, WorldEvent, WorldState } from "../model/types.js";
import { equipmentOf } from "./equipment.js";

/** An agent takes turns unless it declared completion or is sitting out a defeat. */
export function isActive(agent: AgentState, tick: number): boolean {
  return agent.completed === null && agent.downUntil <= tick;
}

/**
 * A defeated agent wakes at the spawn point with full hp and sits out `respawnRounds` rounds:
 * it acts again at tick `tick + 1 + respawnRounds`. It keeps its inventory and equipment.
 */
export function defeat(world: World, state: WorldState, agent: AgentState): AgentState {
  const { spawn } = world.pack.world;
  return {
    ...agent,
    hp: agent.maxHp,
    x: spawn.x,
    y: spawn.y,
    deaths: agent.deaths + 1,
    downUntil: state.tick + 1 + state.rules.respawnRounds,
  };
}

const BUCKET = 16;
// Neighbour order is fixed so that ties between equally good steps resolve the same way everywhere.
const STEPS: ReadonlyArray<readonly [number, number]> = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
  [1, -1],
  [1, 1],
  [-1, 1],
  [-1, -1],
];

const cheb = (ax: number, ay: number, bx: number, by: number): number =>
  Math.max(Math.abs(ax - bx), Math.abs(ay - by));

/**
 * The end of a round, after every agent's turn: aggressive mobs act (in spawn order: each
 * approaches the nearest active agent within its aggro range by up to `mobStepTiles`, never
 * straying more than `mobLeash` from its spawn point, and strikes it when adjacent; with no
 * target it walks back home), active agents regenerate, and the clock ticks. Pure; all randomness comes from the state's RNG.
 */
export function endRound(world: World, state: WorldState): { state: WorldState; events: WorldEvent[] } {
  const events: WorldEvent[] = [];
  const rng = Rng.fromState(state.rng);
  let { agents, mobs, seq } = state;
  const { rules, tick } = state;
  const emit = (agent: string | null, type: string, data: WorldEvent["data"]): void => {
    events.push({ seq: seq++, tick, agent, type, action: null, data });
  };
  // Active agents bucketed by position, so each mob looks only at its own neighbourhood.
  const near = new Map<number, number[]>();
  for (let i = 0; i < agents.length; i++) {
    const a = agents.get(i);
    if (a === undefined || !isActive(a, tick)) continue;
    const key = Math.floor(a.y / BUCKET) * 4096 + Math.floor(a.x / BUCKET);
    near.set(key, [...(near.get(key) ?? []), i]);
  }
  const { map } = world;
  const comp = (x: number, y: number): number => map.comp[y * map.width + x] ?? -1;
  for (let m = 0; m < mobs.length; m++) {
    const spawn = world.pack.spawns[m];
    const def = spawn === undefined ? undefined : world.mob.get(spawn.mob);
    const mob = mobs.get(m);
    if (spawn === undefined || def === undefined || mob === undefined || !def.aggressive) continue;
    if (mob.respawnAt >= 0 && mob.respawnAt > tick) continue; // dead
    let { x, y } = mob;
    // The nearest active agent within aggro range of where the mob stands (ties: agent order).
    let target = -1;
    let best = Number.POSITIVE_INFINITY;
    const r = def.aggroRange;
    for (let by = Math.floor((y - r) / BUCKET); by <= Math.floor((y + r) / BUCKET); by++) {
      for (let bx = Math.floor((x - r) / BUCKET); bx <= Math.floor((x + r) / BUCKET); bx++) {
        for (const i of near.get(by * 4096 + bx) ?? []) {
          const a = agents.get(i);
          if (a === undefined || !isActive(a, tick) || comp(a.x, a.y) !== comp(x, y)) continue;
          const dist = cheb(a.x, a.y, x, y);
          if (dist <= r && (dist < best || (dist === best && i < target))) {
            best = dist;
            target = i;
          }
        }
      }
    }
    const victim = target >= 0 ? agents.get(target) : undefined;
    const goal = victim === undefined ? { x: spawn.x, y: spawn.y } : { x: victim.x, y: victim.y };
    const from: [number, number] = [x, y];
    for (let k = 0; k < rules.mobStepTiles && cheb(x, y, goal.x, goal.y) > (victim ? 1 : 0); k++) {
      const cur = cheb(x, y, goal.x, goal.y);
      let next: [number, number] | null = null;
      for (const [dx, dy] of STEPS) {
        const nx = x + dx;
        const ny = y + dy;
        if (!walkable(map, nx, ny) || cheb(nx, ny, spawn.x, spawn.y) > rules.mobLeash) continue;
        if (cheb(nx, ny, goal.x, goal.y) < cur) {
          next = [nx, ny];
          break;
        }
      }
      if (next === null) break;
      [x, y] = next;
    }
    if (x !== from[0] || y !== from[1]) {
      mobs = mobs.set(m, { ...mob, x, y } satisfies MobState);
      emit(victim?.id ?? null, "mob_moved", { mob: spawn.id, from, to: [x, y] });
    }
    if (victim === undefined || cheb(x, y, victim.x, victim.y) > 1) continue;
    const defence = (victim.skills.defence?.level ?? 1) + equipmentOf(world, state, victim).defence;
    const hit = rng.next() < def.attack / (def.attack + defence + 1);
    const damage = hit ? 1 + rng.int(0, Math.floor(def.attack / 6)) : 0;
    let hurt: AgentState = { ...victim, hp: Math.max(0, victim.hp - damage) };
    emit(victim.id, "aggro", { mob: spawn.id, kind: def.id, damage, hp: hurt.hp });
    if (hurt.hp === 0) {
      hurt = defeat(world, { ...state, agents }, hurt);
      emit(victim.id, "agent_defeated", {
        by: spawn.id,
        respawn: [hurt.x, hurt.y],
        until: hurt.downUntil,
      });
    }
    agents = agents.set(target, hurt);
  }
  // Slow regeneration: 1 hp at the end of every `regenEveryRounds`-th round (tick 0 is round 1).
  const regen = rules.regenEveryRounds > 0 && (tick + 1) % rules.regenEveryRounds === 0;
  for (let i = 0; i < agents.length && regen; i++) {
    const a = agents.get(i);
    if (a === undefined || !isActive(a, tick) || a.hp >= a.maxHp) continue;
    agents = agents.set(i, { ...a, hp: a.hp + 1 });
  }
  return { state: { ...state, agents, mobs, seq, rng: rng.state(), tick: tick + 1 }, events };
}
