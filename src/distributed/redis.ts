import { Redis } from "ioredis";
import { UserError } from "../core/index.js";

/**
 * A connection that waits through a Redis restart instead of failing: commands queue while
 * ioredis reconnects (BullMQ's workers require maxRetriesPerRequest null for the same reason).
 */
export function connectRedis(url: string): Redis {
  if (!/^rediss?:\/\//.test(url)) throw new UserError(`${url}: not a Redis URL (redis://host:port)`);
  return new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
}
