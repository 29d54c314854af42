import type { World } from "../build/world.js";
import type { WorldTaskSpec } from "../task/schema.js";
import { agentDocument } from "../task/setup.js";
import type { TeamMember } from "../team/types.js";
import { type AppliedModifier, modifyMembers } from "./modifiers.js";

/** The team as its agent is told of it: each member's id, role, goal and role document, after the modifiers. */
export function trialMembers(
  spec: WorldTaskSpec,
  base: World,
  mods: readonly AppliedModifier[],
): TeamMember[] {
  return modifyMembers(
    spec.team.map((m) => ({
      id: m.id,
      role: m.role,
      goal: m.goal,
      document: agentDocument(spec, base, m.id),
    })),
    mods,
  );
}

/** What each member knew before the run, for the information rule of causal contribution. */
export function membersPrior(members: readonly TeamMember[]): Record<string, string> {
  return Object.fromEntries(members.map((m) => [m.id, `${m.role}\n${m.goal}\n${m.document}`]));
}
