import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Redis } from "ioredis";
import { errorMessage, UserError } from "../core/index.js";
import { onceAMinute } from "./log-once.js";

/** How long a coordinator's hold on its job outlives the coordinator (kill -9, machine lost). */
export const COORDINATOR_LEASE_MS = 30_000;

/** The Redis key that says which coordinator runs a job. */
export function coordinatorKey(jobId: string): string {
  return `longhaul:coord:${jobId}`;
}

/**
 * Renews our hold (1); takes it again if it lapsed meanwhile and nobody took it (2: a long Redis
 * outage, renewals refused); 0 if another holds it.
 */
const RENEW = `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 2 end
return 0`;
/** Deletes the key only if it still holds `ARGV[1]`: never another coordinator's hold. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface Holder {
  host: string;
  pid: number;
  id: string;
}

export interface CoordinatorLease {
  /** Aborted (with a UserError) when another coordinator took the job meanwhile. */
  readonly lost: AbortSignal;
  /**
   * Whether the hold is surely still ours: a renewal sent less than two thirds of a lease ago
   * succeeded. A trial is recorded (and removed from Redis) only then: once renewals fail, the
   * hold may lapse and another coordinator take the job, and both would record its trials.
   */
  held(): boolean;
  /** Stops renewing and frees the job; gives up after a second if Redis does not answer. */
  release(): Promise<void>;
}

/**
 * Makes this process the job's only coordinator: two coordinators of one job would record the
 * same trials twice and remove each other's trial folders. The hold expires `leaseMs` after its
 * last renewal, so a killed coordinator's job can be resumed; a holder on this machine whose
 * process is gone is taken over at once.
 */
export async function takeCoordinatorLease(
  redis: Redis,
  jobId: string,
  leaseMs = COORDINATOR_LEASE_MS,
  log: (line: string) => void = () => undefined,
): Promise<CoordinatorLease> {
  const key = coordinatorKey(jobId);
  const token = JSON.stringify({ host: hostname(), pid: process.pid, id: randomUUID() } satisfies Holder);
  // When the last renewal that succeeded was sent: Redis counts the lease from a later moment.
  // A monotonic clock: a wall clock set back would make an old renewal look recent.
  const now = (): number => performance.now();
  let confirmedAt = now();
  for (let tries = 0; ; tries++) {
    confirmedAt = now();
    if ((await redis.set(key, token, "PX", leaseMs, "NX")) === "OK") break;
    const held = await redis.get(key);
    if (held === null && tries < 5) continue;
    const holder = parseHolder(held);
    if (held !== null && holder !== null && holder.host === hostname() && !alive(holder.pid) && tries < 5) {
      await redis.eval(RELEASE, 1, key, held);
      continue;
    }
    const ttl = Math.max(1, Math.ceil((await redis.pttl(key)) / 1000));
    const who = holder === null ? "another process" : `${holder.host}:${holder.pid}`;
    throw new UserError(
      `job ${jobId} already has a coordinator (${who}) on this queue; wait for it to end or stop it (a killed coordinator's hold lapses within ${ttl} s)`,
    );
  }
  const lost = new AbortController();
  // One renewal per third of a lease; the hold is trusted for two thirds after a renewal is sent,
  // so recording stops a third of a lease before the hold could lapse (clock rates aside).
  const every = Math.max(10, Math.floor(leaseMs / 3));
  const held = (): boolean => now() - confirmedAt < leaseMs - every;
  const refused = onceAMinute(log);
  let paused = false;
  let renewing = false;
  const timer = setInterval(() => {
    if (!paused && !held() && !lost.signal.aborted) {
      paused = true;
      log(
        `job ${jobId}: coordinator lease not renewed for ${((now() - confirmedAt) / 1000).toFixed(1)} s: no trial is recorded until Redis renews it (finished trials wait in the queue)`,
      );
    }
    // A renewal waiting on a Redis outage is not doubled by the next tick.
    if (renewing) return;
    renewing = true;
    const sentAt = now();
    Promise.resolve(redis.eval(RENEW, 1, key, token, String(leaseMs)))
      .then((ok) => {
        if (ok === 0) {
          if (!lost.signal.aborted)
            lost.abort(
              new UserError(
                `job ${jobId}: another coordinator took this job while this one's lease could not be renewed; this one stops (resume it once the other has ended)`,
              ),
            );
          return;
        }
        confirmedAt = sentAt;
        if (paused)
          log(
            ok === 2
              ? `job ${jobId}: coordinator lease had lapsed and is taken again (no other coordinator took the job); recording goes on`
              : `job ${jobId}: coordinator lease renewed again; recording goes on`,
          );
        paused = false;
      })
      .catch((e: unknown) => {
        // Said once a minute: a Redis that refuses writes refuses every renewal.
        refused(
          `job ${jobId}: Redis refused to renew the coordinator lease (${errorMessage(e).split("\n")[0]}); trials are recorded only while the lease is surely held`,
        );
      })
      .finally(() => {
        renewing = false;
      });
  }, every);
  timer.unref();
  return {
    lost: lost.signal,
    held,
    release: async () => {
      clearInterval(timer);
      // With Redis down the hold simply lapses after leaseMs: an exit is not held up for it.
      await Promise.race([
        Promise.resolve(redis.eval(RELEASE, 1, key, token)).catch(() => undefined),
        new Promise((r) => setTimeout(r, 1000).unref()),
      ]);
    },
  };
}

function parseHolder(text: string | null): Holder | null {
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as Partial<Holder>;
    return typeof v.host === "string" && typeof v.pid === "number" && typeof v.id === "string"
      ? { host: v.host, pid: v.pid, id: v.id }
      : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
