import { canonicalJson, UserError } from "../../core/index.js";
import type { World } from "../build/world.js";
import { ROLES, type RoleDef } from "../model/roles.js";
import type { ToolResult, WorldState } from "../model/types.js";
import { type RunFile, Session, TurnError } from "./session.js";
import { stateDigest } from "./snapshot.js";

export type ReplayVerdict = "identical" | "different" | "invalid";

export interface ReplayOutcome {
  verdict: ReplayVerdict;
  /** Why the replay is not identical (empty when it is). */
  reason: string;
  /** The replayed session (as far as it got); null when the run was not replayed at all. */
  session: Session | null;
}

/** Sees a replay as it goes: the session at round 0, then after each call (index into the run's calls). */
export interface ReplayObserver {
  start?(session: Session): void;
  call?(index: number, result: ToolResult, session: Session): void;
}

/**
 * Re-runs a run file's calls from its seed, with its rules and roles, and compares. A run
 * recorded against another content pack is `different` without being re-run; a run whose calls
 * break the turn order (an agent out of turn, a call recorded in the wrong round, a call after
 * the run ended) is `invalid`; otherwise the events, round count and final digest must all match.
 * `start` is the round-0 state when the run did not begin from the plain initial state (a world
 * task's setup, rebuilt by the task layer from the run's `task` record). `watch` sees the session
 * at the start and after each replayed call (the viewer's replay reads positions and results).
 */
export function checkReplay(
  world: World,
  run: RunFile,
  roles: readonly RoleDef[] = run.roles ?? ROLES,
  start?: WorldState,
  watch?: ReplayObserver,
): ReplayOutcome {
  if (run.contentDigest !== world.contentDigest) {
    return {
      verdict: "different",
      reason: `content pack digest differs: recorded ${run.contentDigest}, loaded ${world.contentDigest}`,
      session: null,
    };
  }
  const s = new Session(world, run.agents, run.seed, run.roundBudget, roles, run.rules);
  if (start !== undefined) {
    if (canonicalJson(start.rules) !== canonicalJson(s.state.rules)) {
      const reason = `the run's rules ${JSON.stringify(run.rules)} differ from its start state's ${JSON.stringify(start.rules)}`;
      return { verdict: "different", reason, session: null };
    }
    s.state = start;
  }
  watch?.start?.(s);
  for (const [i, c] of run.calls.entries()) {
    if (c.round !== s.round) {
      const reason = `call ${i} (${c.agent}) is recorded in round ${c.round}, but the turn order puts it in round ${s.round}`;
      return { verdict: "invalid", reason, session: s };
    }
    try {
      const result = s.act(c.agent, c.call);
      watch?.call?.(i, result, s);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      const what = e instanceof TurnError ? "breaks the turn order" : "is not a valid call";
      return { verdict: "invalid", reason: `call ${i} (${c.agent}) ${what}: ${e.message}`, session: s };
    }
  }
  // Files written before rounds counted a round every agent completed in mid-way recorded the
  // ended rounds only; both counts follow from the calls, so either is the run's.
  if (s.roundsPlayed !== run.rounds && s.round !== run.rounds) {
    const reason = `the run records ${run.rounds} rounds; its calls play ${s.roundsPlayed}`;
    return { verdict: "different", reason, session: s };
  }
  if (JSON.stringify(s.events) !== JSON.stringify(run.events))
    return { verdict: "different", reason: "the events differ", session: s };
  if (stateDigest(s.state) !== run.finalDigest)
    return { verdict: "different", reason: "the final state digest differs", session: s };
  return { verdict: "identical", reason: "", session: s };
}

/** Re-runs a run file and returns the session; throws a UserError when the run is not replayable. */
export function replay(world: World, run: RunFile, roles?: readonly RoleDef[]): Session {
  const out = checkReplay(world, run, roles);
  if (out.session === null || out.verdict === "invalid") throw new UserError(`cannot replay: ${out.reason}`);
  return out.session;
}
