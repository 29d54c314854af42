import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { errorMessage, InfraError, UserError } from "../core/index.js";
import { checkRedisUrl, redactUrl } from "./redis-url.js";

const lastErrors = new WeakMap<Redis, string>();
/** Why a connection can never work (bad password, bad DB index): retrying would only spin. */
const fatalErrors = new WeakMap<Redis, UserError>();

/** A server's answer that no reconnect can change: the connection is given up with one line. */
function fatalReply(e: unknown, url: string): UserError | null {
  const msg = errorMessage(e);
  const command = (e as { command?: { name?: string } }).command?.name;
  if (
    /^(NOAUTH|WRONGPASS)|invalid password|AUTH .*called without any password/i.test(msg) ||
    command === "auth"
  )
    return new UserError(`Redis at ${redactUrl(url)} refused the password: ${msg.split("\n")[0]}`);
  if (command === "select" || /DB index is out of range/i.test(msg))
    return new UserError(`Redis at ${redactUrl(url)} has no such database: ${msg.split("\n")[0]}`);
  return null;
}

/**
 * A connection that waits through a Redis restart instead of failing: commands queue while
 * ioredis reconnects (BullMQ's workers require maxRetriesPerRequest null for the same reason).
 * An outage is logged once when it starts and once when it ends, not per reconnect attempt.
 * A refused password or database before the first ready is fatal: the connection is closed and
 * `checkRedis` reports it, since reconnecting would fail the same way forever.
 */
export function connectRedis(url: string, log?: (line: string) => void): Redis {
  checkRedisUrl(url);
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
  let down = false;
  let everReady = false;
  redis.on("error", (e) => {
    const fatal = everReady ? null : fatalReply(e, url);
    if (fatal !== null) {
      if (!fatalErrors.has(redis)) fatalErrors.set(redis, fatal);
      redis.disconnect();
      return;
    }
    lastErrors.set(redis, errorMessage(e));
    if (!down) log?.(`Redis connection lost (${errorMessage(e)}); reconnecting`);
    down = true;
  });
  redis.on("ready", () => {
    if (fatalErrors.has(redis)) return;
    everReady = true;
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
        new UserError(
          `Redis at ${redactUrl(url)} did not answer within ${timeoutMs / 1000} s${why ? ` (${why})` : ""}`,
        ),
      );
    }, timeoutMs);
  });
  try {
    await Promise.race([redis.ping(), timeout]);
    // A refused SELECT is reported before ready, yet ioredis goes on with database 0.
    const fatal = fatalErrors.get(redis);
    if (fatal !== undefined) throw fatal;
  } catch (e) {
    redis.disconnect();
    const fatal = fatalErrors.get(redis) ?? fatalReply(e, url);
    throw fatal ?? e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Fails with one line when Redis answers but refuses writes, which every queue operation needs:
 * a read-only replica (READONLY) or a user whose ACL forbids writing (NOPERM) is a wrong URL or
 * user (exit 2); a server that cannot persist (MISCONF) or is out of memory (OOM) is an
 * infrastructure error. Without this, the first write failed deep inside with a stack trace.
 */
export async function checkWritable(redis: Redis, url: string): Promise<void> {
  const key = `longhaul:probe:${randomBytes(8).toString("hex")}`;
  try {
    await redis.set(key, "1", "PX", 5000);
    await redis.del(key);
  } catch (e) {
    const line = errorMessage(e).split("\n")[0] ?? "";
    const shown = redactUrl(url);
    redis.disconnect();
    if (/^READONLY/.test(line))
      throw new UserError(`Redis at ${shown} is a read-only replica; give the primary's URL (${line})`);
    if (/^NOPERM/.test(line))
      throw new UserError(`Redis at ${shown} does not let this user write the queue's keys (${line})`);
    if (/^(MISCONF|OOM)/.test(line)) throw new InfraError(`Redis at ${shown} refuses writes: ${line}`);
    throw e;
  }
}
