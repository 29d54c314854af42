import type { World } from "../build/world.js";
import type { WorldEvent, WorldState } from "../model/types.js";
import { evalPredicate, type PredicateContext } from "./predicates.js";
import type { WorldTaskSpec } from "./schema.js";
import { setupWorldTask, taskWorld } from "./setup.js";

export interface WorldVerdict {
  /** SR: the success predicate holds on the final state and the event log. */
  success: boolean;
  /** PSR: the weighted share of checkpoints reached (1 when the task has none and succeeded). */
  psr: number;
  checkpoints: { id: string; weight: number; reached: boolean; detail: string }[];
  successDetail: string;
}

/** Grades a finished run of a task from its final state and every event it produced. */
export function verifyWorldRun(
  spec: WorldTaskSpec,
  world: World,
  final: WorldState,
  events: readonly WorldEvent[],
): WorldVerdict {
  const ctx: PredicateContext = { spec, world: taskWorld(spec, world), state: final, events };
  const success = evalPredicate(spec.success, ctx);
  const checkpoints = spec.checkpoints.map((c) => {
    const r = evalPredicate(c.predicate, ctx);
    return { id: c.id, weight: c.weight, reached: r.holds, detail: r.detail };
  });
  const total = checkpoints.reduce((n, c) => n + c.weight, 0);
  const reached = checkpoints.reduce((n, c) => n + (c.reached ? c.weight : 0), 0);
  const psr = total === 0 ? (success.holds ? 1 : 0) : reached / total;
  return { success: success.holds, psr, checkpoints, successDetail: success.detail };
}

/**
 * Names of the success condition ("success") and checkpoints that already hold in the round-0
 * state with no events: such a task would hand out credit for doing nothing.
 */
export function roundZeroTraps(spec: WorldTaskSpec, world: World): string[] {
  const { state } = setupWorldTask(spec, world);
  const v = verifyWorldRun(spec, world, state, []);
  return [...(v.success ? ["success"] : []), ...v.checkpoints.filter((c) => c.reached).map((c) => c.id)];
}
