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

/** Fails with one clear line when Redis does not answer, instead of waiting for it forever. */
export async function checkRedis(redis: Redis, url: string, timeoutMs = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new UserError(`Redis at ${url} did not answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([redis.ping(), timeout]);
  } catch (e) {
    redis.disconnect();
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
