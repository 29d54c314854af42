import { Redis } from "ioredis";
import { errorMessage, UserError } from "../core/index.js";

const lastErrors = new WeakMap<Redis, string>();

/**
 * A connection that waits through a Redis restart instead of failing: commands queue while
 * ioredis reconnects (BullMQ's workers require maxRetriesPerRequest null for the same reason).
 * An outage is logged once when it starts and once when it ends, not per reconnect attempt.
 */
export function connectRedis(url: string, log?: (line: string) => void): Redis {
  if (!/^rediss?:\/\//.test(url)) throw new UserError(`${url}: not a Redis URL (redis://host:port)`);
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
  let down = false;
  redis.on("error", (e) => {
    lastErrors.set(redis, errorMessage(e));
    if (!down) log?.(`Redis connection lost (${errorMessage(e)}); reconnecting`);
    down = true;
  });
  redis.on("ready", () => {
    if (down) log?.("Redis connection back");
    down = false;
  });
  return redis;
}

/** Fails with one clear line when Redis does not answer, instead of waiting for it forever. */
export async function checkRedis(redis: Redis, url: string, timeoutMs = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const why = lastErrors.get(redis);
      reject(
        new UserError(`Redis at ${url} did not answer within ${timeoutMs / 1000} s${why ? ` (${why})` : ""}`),
      );
    }, timeoutMs);
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
