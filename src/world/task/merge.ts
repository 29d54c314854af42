import { ROLES, type RoleDef, roleById } from "../model/roles.js";
import type { Skill } from "../model/schema.js";
import { TOOL_NAMES } from "../model/tool-args.js";
import type { WorldTaskMember, WorldTaskSpec } from "./schema.js";

const isBuiltinTool = (name: string): boolean => (TOOL_NAMES as readonly string[]).includes(name);

/** The one agent of a merged team (the `merged` modifier), and its role's id. */
export const MERGED_AGENT_ID = "merged";
export const MERGED_ROLE_ID = "merged";

/** Whether the task is played by its team merged into one agent (task param `merged: true`). */
export function isMerged(spec: WorldTaskSpec): boolean {
  return spec.params.merged === true;
}

/**
 * The agent id an agent named by the task stands for in the run: under `merged` every member is
 * the merged agent, so predicates and checkpoints naming a member look at the merged agent.
 */
export function runAgentId(spec: WorldTaskSpec, id: string): string {
  return isMerged(spec) ? MERGED_AGENT_ID : id;
}

/** The agent ids of the run: the team's, or the merged agent alone. */
export function runAgentIds(spec: WorldTaskSpec): string[] {
  return isMerged(spec) ? [MERGED_AGENT_ID] : spec.team.map((m) => m.id);
}

/**
 * The members whose abilities fill the merged agent: every member, or under `solo_role` only the
 * members of that role (a single role trying the whole task alone).
 */
export function mergedMembers(spec: WorldTaskSpec): WorldTaskMember[] {
  const role = spec.params.solo_role;
  return role === undefined ? spec.team : spec.team.filter((m) => m.role === role);
}

/** The task played by one agent with only `role`'s abilities (its members' skills, items and tools). */
export function soloRoleSpec(spec: WorldTaskSpec, role: string): WorldTaskSpec {
  return { ...spec, params: { ...spec.params, merged: true, solo_role: role } };
}

/** A member's skill levels: its role's, with the task's own levels over them. */
function memberSkills(m: WorldTaskMember): Partial<Record<Skill, number>> {
  const out: Partial<Record<Skill, number>> = { ...(roleById(m.role)?.skills ?? {}) };
  for (const [skill, level] of Object.entries(m.skills ?? {}))
    if (level !== undefined) out[skill as Skill] = level;
  return out;
}

/**
 * The merged agent's role: per skill the highest level of any member (task levels included),
 * every member's role kit summed per item, every tool any member may use, and what any member's
 * role document knows. The run file records it like any role, so a replay needs nothing else.
 */
export function mergedRole(spec: WorldTaskSpec, roles: readonly RoleDef[] = ROLES): RoleDef {
  const skills: Partial<Record<Skill, number>> = {};
  const kit = new Map<string, number>();
  const tools = new Set<string>();
  let monsters = false;
  let npcs = false;
  for (const m of mergedMembers(spec)) {
    for (const [skill, level] of Object.entries(memberSkills(m)))
      skills[skill as Skill] = Math.max(skills[skill as Skill] ?? 0, level ?? 0);
    const role = roles.find((r) => r.id === m.role);
    if (role === undefined) continue;
    for (const s of role.items) kit.set(s.item, (kit.get(s.item) ?? 0) + s.qty);
    for (const t of [...role.tools, ...m.tools]) tools.add(t);
    monsters ||= role.knows.monsters;
    npcs ||= role.knows.npcs === true;
  }
  return {
    id: MERGED_ROLE_ID,
    name: "Merged team",
    summary: `The whole team as one agent: ${mergedMembers(spec)
      .map((m) => m.id)
      .join(", ")}.`,
    skills,
    items: [...kit].map(([item, qty]) => ({ item, qty })),
    // Built-in tools in their usual order, then the task's registered extras.
    tools: [...TOOL_NAMES.filter((t) => tools.has(t)), ...[...tools].filter((t) => !isBuiltinTool(t))],
    knows: { monsters, ...(npcs ? { npcs } : {}) },
  };
}
