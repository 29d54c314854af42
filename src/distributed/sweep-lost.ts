import type { CoordinatorRun } from "./coordinator-run.js";
import { orStop } from "./stoppable-wait.js";
import { queueJobId } from "./trial-job.js";

/** How often the store and the queue are compared for trials nobody holds (`sweepLost`). */
export const SWEEP_MS = 10_000;

/**
 * Trials this coordinator waits for that are neither recorded nor in the queue (Redis lost
 * them, or something else removed them) would be waited for forever: the store is read
 * again, and what it does not hold is enqueued again.
 */
export async function sweepLost(run: CoordinatorRun): Promise<void> {
  const { store, config, waiting, done, progress, redis, queue, byTrial, stop } = run;
  for (const r of await store.listTrials(config.job_id)) {
    if (!waiting.has(r.trial_id)) continue;
    done.add(r.trial_id);
    waiting.delete(r.trial_id);
    progress.trialFinished(r);
  }
  const ids = [...waiting];
  if (ids.length === 0) return;
  const pipe = redis.pipeline();
  for (const t of ids) pipe.exists(queue.toKey(queueJobId(config.job_id, t)));
  const held = (await orStop(pipe.exec(), stop)) ?? [];
  const lost = ids.flatMap((t, i) => {
    const p = byTrial.get(t);
    return held[i]?.[1] === 0 && p !== undefined ? [p] : [];
  });
  if (lost.length === 0) return;
  run.log(`${lost.length} trial(s) of job ${config.job_id} were neither recorded nor queued: enqueued again`);
  await run.enqueueAgain(lost);
}
