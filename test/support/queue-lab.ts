import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type CliProcess, startCli } from "./cli-process.js";
import { type RedisServer, startRedis } from "./redis-server.js";

/**
 * A real Redis server and a scratch folder for one test file of the trial queue, and the CLI
 * processes the file starts. Both are set in a beforeAll hook registered by `useQueueLab`; after
 * the file every process is killed (-9), Redis stopped and the folder removed. A file's own
 * afterAll, registered after, runs before that (vitest runs after-hooks in reverse order).
 */
export interface QueueLab {
  readonly redis: RedisServer;
  readonly tmp: string;
  readonly procs: CliProcess[];
}

export function useQueueLab(prefix: string): QueueLab {
  let redis: RedisServer | undefined;
  let tmp: string | undefined;
  const procs: CliProcess[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    tmp = mkdtempSync(join(tmpdir(), `longhaul-test-${prefix}-`));
  });
  afterAll(async () => {
    for (const p of procs) await p.kill9();
    await redis?.stop();
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  });
  const started = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error("the queue lab starts in beforeAll");
    return v;
  };
  return {
    get redis() {
      return started(redis);
    },
    get tmp() {
      return started(tmp);
    },
    procs,
  };
}

/** How long a worker's lease on a trial lasts, and how often stalled trials are looked for. */
export interface Leases {
  lockMs: number;
  stalledMs: number;
}

/** Starts `longhaul worker` with two slots on the lab's Redis, its cache in the lab's folder. */
export function startWorker(lab: QueueLab, name: string, leases: Leases): CliProcess {
  const p = startCli([
    "worker",
    "--redis",
    lab.redis.url,
    "-n",
    "2",
    "--cache",
    join(lab.tmp, `cache-${name}`),
    "--lock-ms",
    String(leases.lockMs),
    "--stalled-ms",
    String(leases.stalledMs),
  ]);
  lab.procs.push(p);
  return p;
}
