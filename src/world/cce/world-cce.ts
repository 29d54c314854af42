import type { WorldCce } from "../../core/index.js";
import type { World } from "../build/world.js";
import type { WorldEvent, WorldState } from "../model/types.js";
import { runAgentIds } from "../task/merge.js";
import type { WorldTaskSpec } from "../task/schema.js";
import { taskWorld } from "../task/setup.js";
import { type ClosureContext, traceClosure } from "./closure.js";
import { counterfactualCheck, type RecordedCall } from "./counterfactual.js";
import { indexRun } from "./log.js";
import { cceMetrics } from "./metrics.js";
import { successWitnesses } from "./witnesses.js";

export { DEFAULT_CCE_SAMPLES } from "./defaults.js";

export interface WorldCceInput {
  spec: WorldTaskSpec;
  /** The base world the task is set up in (the task's own mobs and depletions are added here). */
  base: World;
  state: WorldState;
  events: readonly WorldEvent[];
  calls: readonly RecordedCall[];
  success: boolean;
  /** What each agent knew before the run (goal and role document); teammates' ids are added. */
  prior: Readonly<Record<string, string>>;
  /** Counterfactual replays to run (null: none). */
  counterfactual: { seed: number; samples: number } | null;
}

/**
 * Causal contribution of a finished world-task run: success witnesses, their backward closure
 * over the event log, CCE and PAC, and optionally the counterfactual check. A failed run has
 * no witnesses, so its closure is empty and its CCE 0.
 */
export function worldCce(input: WorldCceInput): WorldCce {
  const t0 = performance.now();
  const world = taskWorld(input.spec, input.base);
  const log = indexRun(input.events, input.state.lots.toArray());
  const ctx = { spec: input.spec, world, state: input.state, events: input.events };
  const witnesses = input.success
    ? successWitnesses(input.spec.success, ctx, log).flatMap((w) => w.actions)
    : [];
  const agents = runAgentIds(input.spec);
  const closure = traceClosure(log, witnesses, closureContext(world, input.state, input.prior, agents));
  const metrics = cceMetrics(log, closure, agents, performance.now() - t0);
  const cf =
    input.counterfactual === null || !input.success
      ? null
      : counterfactualCheck(
          input.spec,
          input.base,
          input.calls,
          new Set(metrics.closure),
          input.counterfactual.seed,
          input.counterfactual.samples,
        );
  return { ...metrics, counterfactual: cf };
}

/** The world's part of tracing: harvest tools, skill levels needed, portal keys, what agents knew. */
export function closureContext(
  world: World,
  state: WorldState,
  prior: Readonly<Record<string, string>>,
  agents: readonly string[],
): ClosureContext {
  const team: Record<string, string> = {};
  state.agents.forEach((a) => {
    team[a.id] = a.team;
  });
  const known: Record<string, string> = {};
  for (const id of agents) known[id] = `${prior[id] ?? ""}\n${agents.join(" ")}`;
  const items = [...world.item.values()];
  return {
    toolsFor: (resource) => {
      const res = world.resource.get(resource);
      if (res?.tool === undefined) return [];
      return items.filter((i) => i.toolFor === res.skill).map((i) => i.id);
    },
    needs: (e) => {
      if (e.type === "crafted" && typeof e.data.item === "string") {
        const r = world.recipeFor.get(e.data.item);
        return r === undefined ? null : { skill: r.skill, level: r.level };
      }
      if (e.type === "harvested" && typeof e.data.resource === "string") {
        const r = world.resource.get(e.data.resource);
        return r === undefined ? null : { skill: r.skill, level: r.level };
      }
      return null;
    },
    keyFor: (portal) => world.portal.get(portal)?.requiresItem ?? null,
    prior: known,
    team,
  };
}
