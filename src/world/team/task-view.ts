import type { World } from "../build/world.js";
import type { RoleDef } from "../model/roles.js";
import type { WorldState } from "../model/types.js";
import { isMerged } from "../task/merge.js";
import type { WorldPredicate, WorldTaskSpec } from "../task/schema.js";

/**
 * What a team agent may know of the task beyond its members' goals and documents: how the run is
 * graded (the success predicate and checkpoints), where each agent starts, the monsters the task
 * places, the roles in play and the world the documents were written from. The reference calls
 * are left out on purpose: a team that plans (the scripted team) must not replay them.
 */
export interface TeamTaskView {
  world: World;
  success: WorldPredicate;
  checkpoints: ReadonlyArray<{ id: string; predicate: WorldPredicate; weight: number }>;
  /** The run's agents in turn order, where each stands at round 0 (the merged agent alone under merged). */
  agents: ReadonlyArray<{ id: string; role: string; x: number; y: number }>;
  placedMobs: ReadonlyArray<{ id: string; mob: string; x: number; y: number }>;
  /** Role definitions by id (the merged team's role included), for the roles members are told. */
  roles: ReadonlyMap<string, RoleDef>;
  merged: boolean;
  viewRadius: number;
  maxMoveTiles: number;
}

/** The view of a task set up in `world` (the task's world) whose round-0 state is `state`. */
export function teamTaskView(
  spec: WorldTaskSpec,
  world: World,
  state: WorldState,
  roles: readonly RoleDef[],
): TeamTaskView {
  return {
    world,
    success: spec.success,
    checkpoints: spec.checkpoints,
    agents: state.agents.toArray().map((a) => ({ id: a.id, role: a.role, x: a.x, y: a.y })),
    placedMobs: spec.world.mobs,
    roles: new Map(roles.map((r) => [r.id, r])),
    merged: isMerged(spec),
    viewRadius: state.rules.viewRadius,
    maxMoveTiles: state.rules.maxMoveTiles,
  };
}
