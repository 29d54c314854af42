import type { Queue } from "bullmq";
import { packageVersion } from "../core/package-root.js";
import type { PlannedTrial } from "../runner/trial-plan.js";
import type { JobConfig } from "../store/index.js";
import type { TaskBundleRef } from "./task-bundle.js";
import { queueJobId, type RateLimit, type TrialJobData } from "./trial-job.js";

/** Times a trial whose worker failed (not stalled) is tried again before it is recorded as failed. */
const QUEUE_ATTEMPTS = 3;

/** Puts the pending trials on the queue, each under an id made of the job and trial ids. */
export async function enqueue(
  queue: Queue,
  config: JobConfig,
  pending: PlannedTrial[],
  refs: Map<string, TaskBundleRef>,
  o: { priority?: number; rateLimits?: Map<string, RateLimit> },
): Promise<void> {
  const jobs = pending.flatMap((p) => {
    const ref = refs.get(p.taskName);
    if (ref === undefined) return [];
    const data = trialJobData(config, p, ref, p.model === null ? null : (o.rateLimits?.get(p.model) ?? null));
    return [
      {
        name: "trial",
        data,
        opts: {
          // Re-adding an id BullMQ already holds is a no-op: a resumed coordinator adds only the missing.
          jobId: queueJobId(config.job_id, p.trialId),
          attempts: QUEUE_ATTEMPTS,
          backoff: { type: "fixed", delay: 1000 },
          removeOnComplete: false,
          removeOnFail: false,
          ...(o.priority === undefined ? {} : { priority: o.priority }),
        },
      },
    ];
  });
  for (let i = 0; i < jobs.length; i += 500) await queue.addBulk(jobs.slice(i, i + 500));
}

/** The queue job of one planned trial. */
export function trialJobData(
  config: JobConfig,
  p: PlannedTrial,
  task: TaskBundleRef,
  rateLimit: RateLimit | null,
): TrialJobData {
  return {
    v: 1,
    job_id: config.job_id,
    trial_id: p.trialId,
    task,
    agent: p.agent,
    agent_options: config.agent_options,
    model: p.model,
    attempt: p.attempt,
    seed: p.seed,
    timeout_multiplier: config.timeout_multiplier,
    until_timeout: config.until_timeout === true,
    retries: config.retries,
    rate_limit: rateLimit,
    longhaul_version: packageVersion(),
  };
}
