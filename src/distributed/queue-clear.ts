import { Queue } from "bullmq";
import { checkJobName, UserError } from "../core/index.js";
import { BlobStore } from "./blob-store.js";
import { coordinatorKey } from "./coordinator-lease.js";
import { queuedIdsOf } from "./queue-jobs.js";
import { checkRedis, checkWritable, connectRedis } from "./redis.js";
import { TRIAL_QUEUE, trialReturnSchema } from "./trial-job.js";

export interface QueueClearResult {
  removed: number;
  /** Trials a worker is running now: BullMQ keeps a locked job. */
  running: string[];
}

/**
 * Removes every queued trial of a longhaul job (and the result folders they hold) from the queue:
 * what an earlier job of that name left behind, so a new job of the same name can start.
 */
export async function clearQueuedJob(redisUrl: string, jobId: string): Promise<QueueClearResult> {
  checkJobName(jobId);
  const redis = connectRedis(redisUrl);
  await checkRedis(redis, redisUrl, 5000);
  await checkWritable(redis, redisUrl);
  const queue = new Queue(TRIAL_QUEUE, { connection: redis });
  try {
    if ((await redis.exists(coordinatorKey(jobId))) === 1)
      throw new UserError(`job ${jobId} has a coordinator running on this queue: stop it first`);
    const blobs = new BlobStore(redis);
    const out: QueueClearResult = { removed: 0, running: [] };
    for (const id of await queuedIdsOf(redis, queue, jobId)) {
      const job = await queue.getJob(id);
      const ret = trialReturnSchema.safeParse(job?.returnvalue);
      try {
        if ((await queue.remove(id)) === 1) out.removed += 1;
      } catch {
        out.running.push(id);
        continue;
      }
      if (ret.success && ret.data.artifacts !== null) await blobs.delete(ret.data.artifacts);
    }
    return out;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
