import type { World } from "../build/world.js";
import type { Observation } from "../engine/observe.js";
import type { WorldState } from "../model/types.js";
import type { WorldTaskSpec } from "../task/schema.js";
import type { TeamMember } from "../team/types.js";

/** The agent option that selects a world trial's modifiers: `world_modifiers=no-comm,round-budget=40`. */
export const WORLD_MODIFIERS_OPTION = "world_modifiers";

/** What a modifier may look at: the trial's seed and the base world. */
export interface ModifierContext {
  seed: number;
  world: World;
}

/**
 * A change to how a world trial is played (a baseline or an ablation). Each hook is optional:
 * `spec` rewrites the task before the run is set up (the rewritten spec is what the run file
 * records, so `world replay` plays the modified run exactly), `members` rewrites what the team's
 * decision-maker is told about its agents, `observation` what an agent sees on its turn.
 */
export interface WorldModifierDefinition {
  name: string;
  description: string;
  /** Parses the value of `name=value` (a bad one: a UserError, which the parser prefixes with the list's source); absent: no value. */
  parseValue?(text: string): number;
  spec?(spec: WorldTaskSpec, value: number | null, ctx: ModifierContext): WorldTaskSpec;
  members?(members: readonly TeamMember[], value: number | null): TeamMember[];
  /** `view` is the world and state the observation was made from (absent when not known). */
  observation?(obs: Observation, view?: ObservationSource): Observation;
  /** Refuses a team agent that cannot play under the modifier (a UserError), before a job is made. */
  checkTeam?(team: string): void;
}

/** What an observation was made from: the trial's world (with its placed mobs) and state. */
export interface ObservationSource {
  world: World;
  state: WorldState;
}
