import { collectTrial } from "./collect-trial.js";
import type { CoordinatorRun } from "./coordinator-run.js";
import { finishedOf } from "./queue-jobs.js";
import { orStop, sleep } from "./stoppable-wait.js";
import { SWEEP_MS, sweepLost } from "./sweep-lost.js";

/**
 * Polls the queue until every awaited trial is recorded or the run is stopped: collects finished
 * trials, shows the ones a worker started, and now and then looks for trials nobody holds. A
 * stop while waiting on Redis ends it with a Stopped error.
 */
export async function collectUntilDone(
  run: CoordinatorRun,
  o: { pollMs?: number | undefined; sweepMs?: number | undefined },
): Promise<void> {
  const { queue, prefix, waiting, started, progress, stop, held } = run;
  let lastSweep = Date.now();
  while (!stop.aborted) {
    // While the lease is unsure, finished trials stay in the queue (for this coordinator once
    // a renewal succeeds, or for the one that took the job); nothing is recorded or sent again.
    if (!held()) {
      await sleep(o.pollMs ?? 250, stop);
      continue;
    }
    let collected = 0;
    for (const job of await orStop(finishedOf(queue, prefix), stop))
      if (await collectTrial(run, job)) collected += 1;
    if (waiting.size === 0) break;
    for (const j of await orStop(queue.getJobs(["active"], 0, -1), stop)) {
      const trialId = (j?.id ?? "").slice(prefix.length);
      if (j?.id?.startsWith(prefix) && waiting.has(trialId) && !started.has(trialId)) {
        started.add(trialId);
        progress.trialStarted(trialId);
      }
    }
    if (Date.now() - lastSweep >= (o.sweepMs ?? SWEEP_MS)) {
      await sweepLost(run);
      lastSweep = Date.now();
      if (waiting.size === 0) break;
    }
    if (collected === 0) await sleep(o.pollMs ?? 250, stop);
  }
}
