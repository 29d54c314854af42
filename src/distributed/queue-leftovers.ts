import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { UserError } from "../core/index.js";
import { queuedIdsOf } from "./queue-jobs.js";
import { redactUrl } from "./redis-url.js";

/**
 * A fresh job whose name the queue still holds trials of (an older job of that name, in another
 * jobs folder or with other tasks) would take their results for its own: it is refused.
 */
export async function refuseLeftovers(redis: Redis, queue: Queue, jobId: string, url: string): Promise<void> {
  const ids = await queuedIdsOf(redis, queue, jobId);
  if (ids.length === 0) return;
  throw new UserError(
    `the queue at ${redactUrl(url)} still holds ${ids.length} trial(s) of an earlier job named ${jobId}: continue that job with run --resume --job ${jobId}, or remove them with: longhaul queue clear ${redactUrl(url)} --job ${jobId}`,
  );
}
