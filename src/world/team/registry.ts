import { UserError } from "../../core/index.js";
import { idleTeam, randomTeam, referenceTeam } from "./builtin.js";
import { llmTeam } from "./llm-team.js";
import { scriptedTeam } from "./scripted/scripted-team.js";
import type { TeamAgentDefinition } from "./types.js";

const teams = new Map<string, TeamAgentDefinition>();

/** Adds a team agent by name (a second one of the same name is an error). */
export function registerTeamAgent(def: TeamAgentDefinition): void {
  if (!/^[a-z][a-z0-9-]*$/.test(def.name))
    throw new UserError(`team agent name "${def.name}": use lowercase letters, digits and -`);
  const had = teams.get(def.name);
  if (had !== undefined && had !== def) throw new UserError(`team agent "${def.name}" is already registered`);
  teams.set(def.name, def);
}

/** A team agent by name; an unknown name is a UserError listing the known ones. */
export function getTeamAgent(name: string): TeamAgentDefinition {
  const def = teams.get(name);
  if (def === undefined)
    throw new UserError(`unknown team agent "${name}" (known: ${[...teams.keys()].join(", ")})`);
  return def;
}

export function listTeamAgents(): TeamAgentDefinition[] {
  return [...teams.values()];
}

for (const def of [referenceTeam, randomTeam, idleTeam, scriptedTeam, llmTeam]) registerTeamAgent(def);
