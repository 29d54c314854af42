import { Rng } from "../../core/index.js";
import type { World } from "../build/world.js";
import { worldTaskSession } from "../task/replay.js";
import type { WorldTaskSpec } from "../task/schema.js";
import { verifyWorldRun, type WorldVerdict } from "../task/verify.js";

const WAIT = { tool: "wait", args: {} };

export interface RecordedCall {
  round: number;
  agent: string;
  call: unknown;
}

/**
 * Replays a task's recorded calls with some of them made a `wait` (`masked(index)`) and returns
 * the verifier's verdict. Every other call is played in its recorded round by its recorded agent:
 * an agent whose turn comes with no recorded call left for that round waits (e.g. one that no
 * longer completed), and a recorded call whose agent gets no turn that round (defeated, done) is
 * dropped. A call that is no longer legal in the changed world fails as a tool error, as it would
 * have in play. Replay stops after the recorded rounds.
 */
export function replayMasked(
  spec: WorldTaskSpec,
  base: World,
  calls: readonly RecordedCall[],
  masked: (index: number) => boolean,
): WorldVerdict {
  const queues = new Map<string, Array<{ index: number; call: unknown }>>();
  for (const [index, c] of calls.entries()) {
    const key = `${c.round}|${c.agent}`;
    queues.set(key, [...(queues.get(key) ?? []), { index, call: c.call }]);
  }
  const rounds = calls.reduce((n, c) => Math.max(n, c.round + 1), 0);
  const session = worldTaskSession(spec, base);
  for (let id = session.turn; id !== null && session.round < rounds; id = session.turn) {
    const next = queues.get(`${session.round}|${id}`)?.shift();
    session.act(id, next === undefined || masked(next.index) ? WAIT : next.call);
  }
  return verifyWorldRun(spec, base, session.state, session.events);
}

/** Whether success still holds with call `replaced` made a `wait` (see `replayMasked`). */
export function replayWithout(
  spec: WorldTaskSpec,
  base: World,
  calls: readonly RecordedCall[],
  replaced: number,
): boolean {
  return replayMasked(spec, base, calls, (i) => i === replaced).success;
}

/**
 * The counterfactual check: up to `samples` closure calls and `samples` calls outside it (waits
 * are not sampled: replacing a wait by a wait changes nothing), drawn with a seeded generator,
 * each replayed as a `wait`. A closure call is necessary when success then fails; an outside
 * call breaks success when it fails.
 */
export function counterfactualCheck(
  spec: WorldTaskSpec,
  base: World,
  calls: readonly RecordedCall[],
  closure: ReadonlySet<number>,
  seed: number,
  samples: number,
) {
  const rng = new Rng(seed);
  const isWait = (c: RecordedCall): boolean =>
    typeof c.call === "object" && c.call !== null && (c.call as { tool?: unknown }).tool === "wait";
  const inside = [...closure].sort((a, b) => a - b);
  const outside = calls.flatMap((c, i) => (closure.has(i) || isWait(c) ? [] : [i]));
  const picked = [...pick(rng, inside, samples), ...pick(rng, outside, samples)].sort((a, b) => a - b);
  const results = picked.map((index) => ({
    index,
    in_closure: closure.has(index),
    success: replayWithout(spec, base, calls, index),
  }));
  const ins = results.filter((r) => r.in_closure);
  const outs = results.filter((r) => !r.in_closure);
  return {
    seed,
    inside: { sampled: ins.length, necessary: ins.filter((r) => !r.success).length },
    outside: { sampled: outs.length, breaking: outs.filter((r) => !r.success).length },
    calls: results,
  };
}

/** k distinct elements (all when there are at most k), by a partial Fisher–Yates shuffle. */
function pick(rng: Rng, xs: readonly number[], k: number): number[] {
  const a = [...xs];
  const n = Math.min(k, a.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rng.next() * (a.length - i));
    [a[i], a[j]] = [a[j] as number, a[i] as number];
  }
  return a.slice(0, n);
}
