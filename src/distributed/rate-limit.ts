import type { Redis } from "ioredis";
import type { RateLimit } from "./trial-job.js";

/**
 * Takes one start from a model's budget in the current fixed window, shared by every worker
 * through one Redis counter per model and window. Returns 0 when the trial may start, else the
 * time (ms since the epoch) at which the next window opens.
 */
export async function takeRateSlot(
  redis: Redis,
  model: string,
  limit: RateLimit,
  now = Date.now(),
): Promise<number> {
  const window = Math.floor(now / limit.window_ms);
  const key = `longhaul:rate:${model}:${limit.window_ms}:${window}`;
  const [[, count] = [null, 0]] =
    (await redis
      .multi()
      .incr(key)
      .pexpire(key, limit.window_ms * 2)
      .exec()) ?? [];
  if (typeof count === "number" && count <= limit.max) return 0;
  return (window + 1) * limit.window_ms;
}
