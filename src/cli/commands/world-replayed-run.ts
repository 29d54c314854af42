import { UserError } from "../../core/index.js";
import { buildWorld, createWorld, type World } from "../../world/build/world.js";
import { loadPackDir } from "../../world/content/load.js";
import type { RunFile, Session } from "../../world/engine/session.js";
import { checkRunReplay, runTaskSpec } from "../../world/task/replay.js";
import type { WorldTaskSpec } from "../../world/task/schema.js";
import { verifyWorldRun, type WorldVerdict } from "../../world/task/verify.js";
import { membersPrior, trialMembers } from "../../world/trial/members.js";
import { parseWorldModifiers } from "../../world/trial/modifiers.js";

/** A world task's run, replayed to the letter and verified: what `world cce` and `world judge` read. */
export interface ReplayedTaskRun {
  base: World;
  spec: WorldTaskSpec;
  session: Session;
  verdict: WorldVerdict;
  /** What each agent knew before the run (its role, goal and document), under the run's modifiers. */
  prior: Record<string, string>;
}

/**
 * Replays `run` (read from `file`) in its world — generated from the run's seed, or `content`'s
 * pack — and verifies it. A run without a task record, or one that does not replay identically,
 * is the user's error: `purpose` says what could not be done with it.
 */
export function replayedTaskRun(
  file: string,
  run: RunFile,
  content: string | undefined,
  purpose: string,
): ReplayedTaskRun {
  const base = content === undefined ? createWorld(run.worldSeed) : buildWorld(loadPackDir(content));
  const spec = runTaskSpec(base, run);
  if (spec === null)
    throw new UserError(`${file}: not a world task's run (no task record): nothing to ${purpose}`);
  const out = checkRunReplay(base, run);
  const session = out.session;
  if (out.verdict !== "identical" || session === null)
    throw new UserError(`${file}: the run does not replay (${out.verdict}: ${out.reason})`);
  const verdict = verifyWorldRun(spec, base, session.state, session.events);
  const members = trialMembers(
    spec,
    base,
    parseWorldModifiers((run.modifiers ?? []).join(","), `${file}: modifiers`),
  );
  return { base, spec, session, verdict, prior: membersPrior(members) };
}
