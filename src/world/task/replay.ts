import { digestOf, UserError } from "../../core/index.js";
import type { World } from "../build/world.js";
import { checkReplay, type ReplayObserver, type ReplayOutcome } from "../engine/replay.js";
import { type RunFile, type RunTask, Session } from "../engine/session.js";
import type { ToolResult, WorldEvent, WorldState } from "../model/types.js";
import { parseWorldTask } from "./load.js";
import type { WorldTaskSpec } from "./schema.js";
import { setupWorldTask, taskWorld } from "./setup.js";

export type WorldTaskRounds = NonNullable<WorldTaskSpec["reference"]>;

export interface WorldTaskReplay {
  state: WorldState;
  events: WorldEvent[];
  /** Every call's result, in order, with its round and agent. */
  results: Array<{ round: number; agent: string; result: ToolResult }>;
  rounds: number;
  session: Session;
}

/** The run file's record of a task: the spec as plain JSON and its digest. */
export function runTaskRecord(spec: WorldTaskSpec): RunTask {
  const json = JSON.parse(JSON.stringify(spec)) as Record<string, unknown>;
  return { id: spec.id, digest: digestOf(json), spec: json };
}

/**
 * A session at the task's round-0 state, in the task's world (with its placed mobs), with the
 * task's seed, round budget and rules: what a runner drives with the team's policy. The task is
 * recorded in the session's run file, so the run replays.
 */
export function worldTaskSession(spec: WorldTaskSpec, world: World): Session {
  const setup = setupWorldTask(spec, world);
  const session = new Session(
    setup.world,
    setup.agents,
    spec.seed,
    spec.max_rounds,
    setup.roles,
    setup.rules,
  );
  session.state = setup.state;
  session.task = runTaskRecord(spec);
  return session;
}

/** The task spec a run file records, validated against the base world; null for a plain run. */
export function runTaskSpec(world: World, run: RunFile): WorldTaskSpec | null {
  if (run.task === undefined) return null;
  const label = `task ${run.task.id} in the run file`;
  const spec = parseWorldTask(JSON.stringify(run.task.spec), label, world);
  if (runTaskRecord(spec).digest !== run.task.digest)
    throw new UserError(`${label}: the spec does not match its digest`);
  return spec;
}

/** The world a run played in: the base world, plus its task's placed mobs if it played a task. */
export function runWorld(world: World, run: RunFile): World {
  const spec = runTaskSpec(world, run);
  return spec === null ? world : taskWorld(spec, world);
}

/**
 * Replays a run file, rebuilding a world task's round-0 state from the run's `task` record when it
 * has one (the spec is validated against `world` and must match its recorded digest). `world` is
 * the base world; the task's placed mobs are added to it here.
 */
export function checkRunReplay(world: World, run: RunFile, watch?: ReplayObserver): ReplayOutcome {
  let spec: WorldTaskSpec | null;
  try {
    spec = runTaskSpec(world, run);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { verdict: "invalid", reason: e.message, session: null };
  }
  if (spec === null) return checkReplay(world, run, undefined, undefined, watch);
  const setup = setupWorldTask(spec, world);
  return checkReplay(setup.world, run, run.roles ?? setup.roles, setup.state, watch);
}

/**
 * Plays rounds of calls from the task's round-0 state with round-robin turns, as an oracle team
 * would: each round every agent acts in team order, making its listed call or `wait`. Stops at
 * the task's round budget or when every agent has called `complete`.
 */
export function replayRounds(spec: WorldTaskSpec, world: World, rounds: WorldTaskRounds): WorldTaskReplay {
  const session = worldTaskSession(spec, world);
  const results: WorldTaskReplay["results"] = [];
  while (!session.done && session.round < rounds.length) {
    const planned = rounds[session.round] ?? [];
    const round = session.round;
    session.runRound((agent) => planned.find((c) => c.agent === agent)?.call ?? { tool: "wait", args: {} });
    // Each agent's last result is its result of this round (an agent acts at most once a round).
    for (const c of session.calls.filter((x) => x.round === round)) {
      const idx = session.state.agentIndex[c.agent];
      const result = idx === undefined ? null : (session.state.agents.get(idx)?.lastResult ?? null);
      if (result !== null) results.push({ round, agent: c.agent, result });
    }
  }
  return { state: session.state, events: session.events, results, rounds: session.roundsPlayed, session };
}

/** Replays the task's reference solution (an empty one if it has none). */
export function replayReference(spec: WorldTaskSpec, world: World): WorldTaskReplay {
  return replayRounds(spec, world, spec.reference ?? []);
}

/** A run in which every agent waits for the whole round budget (the do-nothing baseline). */
export function replayWaits(spec: WorldTaskSpec, world: World): WorldTaskReplay {
  return replayRounds(
    spec,
    world,
    Array.from({ length: spec.max_rounds }, () => []),
  );
}
