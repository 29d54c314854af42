import { digestOf } from "../../core/index.js";
import { roleDocument } from "../build/role-doc.js";
import { bucketOf, type StaticThing, type World } from "../build/world.js";
import { type AgentSpec, initialState } from "../engine/init.js";
import { ROLES, type RoleDef, roleById } from "../model/roles.js";
import { DEFAULT_RULES, type WorldRules } from "../model/rules.js";
import type { Skill } from "../model/schema.js";
import type { AgentState, Lot, WorldState } from "../model/types.js";
import { maxHpFor } from "../tools/combat.js";
import { getWorldTool } from "../tools/registry.js";
import { isMerged, MERGED_AGENT_ID, MERGED_ROLE_ID, mergedMembers, mergedRole } from "./merge.js";
import type { WorldTaskSpec } from "./schema.js";

export interface WorldTaskSetup {
  agents: AgentSpec[];
  /** The round-0 state; a session runs from it (set `session.state` to it before the first round). */
  state: WorldState;
  /** The world the task runs in: the given one, plus the task's placed mobs if it has any. */
  world: World;
  /** The engine rules: the defaults, overridden by the task's `params`. */
  rules: WorldRules;
  /** The roles the agents play: the built-in ones, plus the merged team's role under `merged`. */
  roles: RoleDef[];
}

/** The engine rules a task plays by: `DEFAULT_RULES` with the task's `params` applied. */
export function taskRules(spec: WorldTaskSpec): WorldRules {
  const p = spec.params;
  return {
    viewRadius: p.view_radius ?? DEFAULT_RULES.viewRadius,
    maxMoveTiles: p.max_move_tiles ?? DEFAULT_RULES.maxMoveTiles,
    regenEveryRounds: p.regen_every_rounds ?? DEFAULT_RULES.regenEveryRounds,
    respawnRounds: p.respawn_rounds ?? DEFAULT_RULES.respawnRounds,
    mobStepTiles: p.mob_step_tiles ?? DEFAULT_RULES.mobStepTiles,
    mobLeash: p.mob_leash ?? DEFAULT_RULES.mobLeash,
    ...(p.no_comm === true ? { noComm: true as const } : {}),
    ...(p.shared_plan === true ? { sharedPlan: true as const } : {}),
  };
}

const derived = new WeakMap<World, Map<string, World>>();

/**
 * The world with the task's placed mobs added as extra spawns (after the pack's own, so spawn
 * indexes of the base world keep their meaning). The map and path-finder are shared; the result
 * is cached per base world and mob list, so tasks with the same placements share one world.
 */
export function taskWorld(spec: WorldTaskSpec, world: World): World {
  const placed = spec.world.mobs;
  if (placed.length === 0) return world;
  const key = JSON.stringify(placed);
  const cache = derived.get(world) ?? new Map<string, World>();
  derived.set(world, cache);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const spawns = [...world.pack.spawns, ...placed.map((m) => ({ id: m.id, mob: m.mob, x: m.x, y: m.y }))];
  const spawnsOf = new Map([...world.spawnsOf].map(([k, v]) => [k, [...v]]));
  const buckets = new Map(world.buckets);
  const spawnIndex = new Map(world.spawnIndex);
  placed.forEach((m, j) => {
    const index = world.pack.spawns.length + j;
    spawnIndex.set(m.id, index);
    spawnsOf.set(m.mob, [...(spawnsOf.get(m.mob) ?? []), index]);
    const b = bucketOf(m.x, m.y);
    const thing: StaticThing = { kind: "mob", index, x: m.x, y: m.y };
    buckets.set(b, [...(buckets.get(b) ?? []), thing]);
  });
  const out: World = {
    ...world,
    pack: { ...world.pack, spawns },
    contentDigest: digestOf({ base: world.contentDigest, placed }),
    spawnIndex,
    spawnsOf,
    buckets,
  };
  cache.set(key, out);
  return out;
}

/**
 * The round-0 state of a task: the team at its spawns with role skills (overridden where the task
 * says), role kit plus the task's inventory, the task's equipment worn, and the world overrides
 * (placed mobs, depleted harvest points) applied, under the task's rules. Task items are lots of
 * origin `start`.
 */
export function setupWorldTask(spec: WorldTaskSpec, world: World): WorldTaskSetup {
  const w = taskWorld(spec, world);
  const merged = isMerged(spec);
  // Under `merged` one agent plays for the team, at the first member's spawn, with the merged role.
  const first = (merged ? mergedMembers(spec) : spec.team)[0];
  const agents: AgentSpec[] = merged
    ? [
        {
          id: MERGED_AGENT_ID,
          role: MERGED_ROLE_ID,
          ...(first?.spawn === undefined ? {} : { at: { x: first.spawn.x, y: first.spawn.y } }),
        },
      ]
    : spec.team.map((m) => ({
        id: m.id,
        role: m.role,
        ...(m.spawn === undefined ? {} : { at: { x: m.spawn.x, y: m.spawn.y } }),
      }));
  const roles = merged ? [...ROLES, mergedRole(spec)] : ROLES;
  const rules = taskRules(spec);
  let state = initialState(w, agents, spec.seed, roles, rules);
  let lots = state.lots;
  const newLot = (item: string, qty: number, by: string, holder: string): number => {
    const lot: Lot = {
      id: lots.length,
      item,
      created: qty,
      qty,
      origin: { event: -1, kind: "start", by },
      from: [],
      transfers: [],
      holder,
    };
    lots = lots.push(lot);
    return lot.id;
  };
  let agentVec = state.agents;
  for (const m of merged ? mergedMembers(spec) : spec.team) {
    // A merged team's members all fill the one agent (their skills are already in its role).
    const id = merged ? MERGED_AGENT_ID : m.id;
    const idx = state.agentIndex[id];
    const a = idx === undefined ? undefined : agentVec.get(idx);
    if (idx === undefined || a === undefined) continue;
    const skills: AgentState["skills"] = { ...a.skills };
    if (!merged)
      for (const [skill, level] of Object.entries(m.skills ?? {}))
        if (level !== undefined) skills[skill as Skill] = { level, xp: 0 };
    const inventory = [...a.inventory];
    for (const s of m.inventory) inventory.push(newLot(s.item, s.qty, id, `agent:${id}`));
    const equipment: AgentState["equipment"] = { ...a.equipment };
    for (const [slot, item] of Object.entries(m.equipment)) {
      if (item === undefined) continue;
      const key = slot as keyof AgentState["equipment"];
      // Merged: the first member (in team order) to wear something in a slot keeps it worn; a
      // later member's item for that slot is carried instead, so no item is lost.
      if (equipment[key] !== undefined) inventory.push(newLot(item, 1, id, `agent:${id}`));
      else equipment[key] = newLot(item, 1, id, `equipped:${id}`);
    }
    const hp = maxHpFor({ skills });
    // Tools the task gives beyond the role's (a merged role already holds every member's).
    const allowedTools = merged ? a.allowedTools : [...new Set([...a.allowedTools, ...m.tools])];
    agentVec = agentVec.set(idx, { ...a, skills, inventory, equipment, hp, maxHp: hp, allowedTools });
  }
  let nodes = state.nodes;
  for (const d of spec.world.depleted_nodes) {
    for (const i of depletedIndexes(w, d)) nodes = nodes.set(i, Math.max(nodes.get(i) ?? 0, d.until));
  }
  state = { ...state, agents: agentVec, lots, nodes };
  return { agents, state, world: w, rules, roles };
}

/** Harvest point indexes a `depleted_nodes` entry names. */
export function depletedIndexes(world: World, d: WorldTaskSpec["world"]["depleted_nodes"][number]): number[] {
  if (d.node !== undefined) {
    const i = world.nodeIndex.get(d.node);
    return i === undefined ? [] : [i];
  }
  return (world.nodesOf.get(d.resource ?? "") ?? []).filter((i) => {
    const n = world.pack.nodes[i];
    if (n === undefined || d.near === undefined) return n !== undefined;
    return Math.max(Math.abs(n.x - d.near.x), Math.abs(n.y - d.near.y)) <= d.near.radius;
  });
}

/** The role document an agent is given: the role's generated document, or the task's own text. */
export function agentDocument(spec: WorldTaskSpec, world: World, agentId: string): string {
  const m = spec.team.find((t) => t.id === agentId);
  if (m === undefined) throw new RangeError(`no agent "${agentId}" in task ${spec.id}`);
  if (m.role_document !== "default") return m.role_document;
  const role = roleById(m.role);
  if (role === undefined) throw new RangeError(`unknown role "${m.role}"`);
  const doc = roleDocument(taskWorld(spec, world), role, m.spawn ?? world.pack.world.spawn);
  const extra = m.tools.filter((t) => !role.tools.includes(t));
  if (extra.length === 0) return doc;
  // The task's extra tools (a plugin's, say) are part of what this agent alone is told.
  const lines = extra.map((t) => `- ${t}: ${getWorldTool(t)?.description ?? "(not registered)"}`);
  return `${doc}\n## Tools this task gives you\n${lines.join("\n")}\n`;
}
