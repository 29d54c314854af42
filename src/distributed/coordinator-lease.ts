import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Redis } from "ioredis";
import { UserError } from "../core/index.js";

/** How long a coordinator's hold on its job outlives the coordinator (kill -9, machine lost). */
export const COORDINATOR_LEASE_MS = 30_000;

/** The Redis key that says which coordinator runs a job. */
export function coordinatorKey(jobId: string): string {
  return `longhaul:coord:${jobId}`;
}

/** Renews our hold; takes it again if it lapsed meanwhile (a long Redis outage); 0 if another holds it. */
const RENEW = `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
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
): Promise<CoordinatorLease> {
  const key = coordinatorKey(jobId);
  const token = JSON.stringify({ host: hostname(), pid: process.pid, id: randomUUID() } satisfies Holder);
  for (let tries = 0; ; tries++) {
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
  let renewing = false;
  const timer = setInterval(
    () => {
      // A renewal waiting on a Redis outage is not doubled by the next tick.
      if (renewing) return;
      renewing = true;
      Promise.resolve(redis.eval(RENEW, 1, key, token, String(leaseMs)))
        .then((ok) => {
          if (ok === 0 && !lost.signal.aborted) {
            lost.abort(
              new UserError(
                `job ${jobId}: another coordinator took this job while Redis did not answer; this one stops (resume it once the other has ended)`,
              ),
            );
          }
        })
        .catch(() => undefined)
        .finally(() => {
          renewing = false;
        });
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return {
    lost: lost.signal,
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
