import { UserError } from "../../core/index.js";
import type { World } from "../build/world.js";
import { type RunFile, Session } from "../engine/session.js";
import { stateDigest } from "../engine/snapshot.js";
import { ROLES } from "../model/roles.js";
import type { ToolResult, WorldEvent, WorldState } from "../model/types.js";
import { runTaskSpec } from "../task/replay.js";
import type { WorldTaskSpec } from "../task/schema.js";
import { setupWorldTask } from "../task/setup.js";

/** A replayed run with the state each call saw: what the chat rules check a message against. */
export interface ChatTimeline {
  /** The world the run played in (a task's placed mobs included). */
  world: World;
  /** The task the run played; null for a plain run. */
  spec: WorldTaskSpec | null;
  calls: RunFile["calls"];
  /** The state just before call i (states are persistent, so keeping each one is cheap). */
  before: WorldState[];
  /** The result of call i. */
  results: ToolResult[];
  /** Every event of the run; call i saw those with seq < before[i].seq. */
  events: WorldEvent[];
  final: WorldState;
}

/**
 * Replays a run file call by call from its round-0 state (a world task's setup rebuilt from the
 * run's task record), keeping the state before every call. Throws a UserError when the run does
 * not replay to its recorded final state.
 */
export function chatTimeline(base: World, run: RunFile): ChatTimeline {
  const spec = runTaskSpec(base, run);
  const setup = spec === null ? null : setupWorldTask(spec, base);
  const world = setup?.world ?? base;
  if (run.contentDigest !== world.contentDigest)
    throw new UserError("the run was recorded in a different world (content digest differs)");
  const roles = run.roles ?? setup?.roles ?? ROLES;
  const s = new Session(world, run.agents, run.seed, run.roundBudget, roles, run.rules);
  if (setup !== null) s.state = setup.state;
  const before: WorldState[] = [];
  const results: ToolResult[] = [];
  for (const [i, c] of run.calls.entries()) {
    before.push(s.state);
    try {
      results.push(s.act(c.agent, c.call));
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      throw new UserError(`the run does not replay: call ${i} (${c.agent}): ${e.message}`);
    }
  }
  if (stateDigest(s.state) !== run.finalDigest)
    throw new UserError("the run does not replay: the final state digest differs");
  return { world, spec, calls: run.calls, before, results, events: s.events, final: s.state };
}
