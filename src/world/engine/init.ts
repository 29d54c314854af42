import { Rng, UserError } from "../../core/index.js";
import type { World } from "../build/world.js";
import { PVec } from "../model/pvec.js";
import { ROLES, type RoleDef } from "../model/roles.js";
import { DEFAULT_RULES, type WorldRules } from "../model/rules.js";
import type { Skill } from "../model/schema.js";
import { walkable } from "../model/tilemap.js";
import type { AgentState, GroundItem, Lot, MobState, WorldState } from "../model/types.js";
import { maxHpFor } from "../tools/combat.js";

export interface AgentSpec {
  id: string;
  role: string;
  team?: string;
  /** Start somewhere other than the world's spawn point. */
  at?: { x: number; y: number };
}

/** The state at tick 0: agents at the spawn point with their role's skills and kit. */
export function initialState(
  world: World,
  agents: readonly AgentSpec[],
  seed: number,
  roles: readonly RoleDef[] = ROLES,
  rules: WorldRules = DEFAULT_RULES,
): WorldState {
  const lots: Lot[] = [];
  const states: AgentState[] = [];
  const index: Record<string, number> = {};
  const { spawn } = world.pack.world;
  agents.forEach((spec, i) => {
    if (index[spec.id] !== undefined) throw new UserError(`agent id "${spec.id}" is used twice`);
    const role = roles.find((r) => r.id === spec.role);
    if (role === undefined)
      throw new UserError(`unknown role "${spec.role}" (known: ${roles.map((r) => r.id).join(", ")})`);
    const skills: AgentState["skills"] = {};
    for (const [skill, level] of Object.entries(role.skills)) skills[skill as Skill] = { level, xp: 0 };
    const inventory: number[] = [];
    for (const stack of role.items) {
      if (!world.item.has(stack.item))
        throw new UserError(`role "${role.id}" starts with unknown item "${stack.item}"`);
      const lot: Lot = {
        id: lots.length,
        item: stack.item,
        created: stack.qty,
        qty: stack.qty,
        origin: { event: -1, kind: "start", by: spec.id },
        from: [],
        transfers: [],
        holder: `agent:${spec.id}`,
      };
      lots.push(lot);
      inventory.push(lot.id);
    }
    let pos = spec.at ?? { x: spawn.x + (i % 7) - 3, y: spawn.y + (Math.floor(i / 7) % 7) - 3 };
    if (!walkable(world.map, pos.x, pos.y)) pos = spawn;
    const hp = maxHpFor({ skills });
    index[spec.id] = i;
    states.push({
      id: spec.id,
      role: role.id,
      team: spec.team ?? "team",
      x: pos.x,
      y: pos.y,
      hp,
      maxHp: hp,
      skills,
      inventory,
      equipment: {},
      readUpTo: 0,
      lastResult: null,
      allowedTools: [...role.tools],
      deaths: 0,
      completed: null,
      downUntil: 0,
    });
  });
  // Vault treasure lies on the ground from the start, as lots with no maker.
  const ground: GroundItem[] = world.pack.loot.map((l, k) => {
    lots.push({
      id: lots.length,
      item: l.item,
      created: l.qty,
      qty: l.qty,
      origin: { event: -1, kind: "start", by: null },
      from: [],
      transfers: [],
      holder: "ground",
    });
    return { id: `g${k}`, lot: lots.length - 1, x: l.x, y: l.y };
  });
  const mobs: MobState[] = world.pack.spawns.map((s) => ({
    hp: world.mob.get(s.mob)?.hp ?? 1,
    respawnAt: -1,
    x: s.x,
    y: s.y,
  }));
  return {
    version: 2,
    seed,
    tick: 0,
    seq: 0,
    rng: new Rng(seed).fork("engine").state(),
    agents: PVec.from(states),
    agentIndex: index,
    nodes: PVec.from(world.pack.nodes.map(() => 0)),
    mobs: PVec.from(mobs),
    lots: PVec.from(lots),
    ground: PVec.from(ground),
    messages: PVec.empty(),
    rules: { ...rules },
  };
}

/** A typed error for a call or observation naming an agent the state does not have. */
export function unknownAgent(state: WorldState, agentId: string): UserError {
  const known = Object.keys(state.agentIndex);
  return new UserError(`unknown agent "${agentId}" (known: ${known.length > 0 ? known.join(", ") : "none"})`);
}
