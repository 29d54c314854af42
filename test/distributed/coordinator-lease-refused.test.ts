import { join } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  coordinatorKey,
  type DistributedRunOptions,
  queueJobId,
  runDistributed,
  TRIAL_QUEUE,
} from "../../src/distributed/index.js";
import { planTrials } from "../../src/runner/index.js";
import { type JobConfig, JobStore } from "../../src/store/index.js";
import type { Task } from "../../src/task/types.js";
import { fixtureTask, jobConfig } from "../runner/helpers.js";
import { until } from "../support/cli-process.js";
import { startWorker, useQueueLab } from "../support/queue-lab.js";

const lab = useQueueLab("lease-refused");
let admin: Redis;
let queue: Queue;
const LEASES = { lockMs: 5000, stalledMs: 1000 };

beforeAll(async () => {
  // The test's own user, not subject to the default user's restrictions below: it can play the
  // other coordinator while renewals are still refused.
  const boot = new Redis(lab.redis.url);
  await boot.call("ACL", "SETUSER", "lab-admin", "on", ">lab-admin-pw", "~*", "&*", "+@all");
  boot.disconnect();
  admin = new Redis(lab.redis.url.replace("redis://", "redis://lab-admin:lab-admin-pw@"), {
    maxRetriesPerRequest: null,
  });
  queue = new Queue(TRIAL_QUEUE, { connection: admin });
  // One worker for the file, started up front; each test holds its trial back by pausing the
  // queue until the moment a worker should finish it.
  await queue.pause();
  await startWorker(lab, "shared", LEASES).waitFor(/2 at once/);
}, 90_000);

afterAll(async () => {
  await admin.call("ACL", "SETUSER", "default", "resetkeys", "~*");
  await queue?.close();
  admin?.disconnect();
});

/**
 * Redis refuses the coordinator's lease renewals and nothing else: the user may write the queue's
 * keys (bull:*), blobs, rate counters and probes, and only read the coordinator keys.
 */
const refuseRenewals = () =>
  admin.call(
    "ACL",
    "SETUSER",
    "default",
    "resetkeys",
    "~bull:*",
    "~longhaul:blob:*",
    "~longhaul:rate:*",
    "~longhaul:probe:*",
    "%R~longhaul:coord:*",
  );
const acceptRenewals = () => admin.call("ACL", "SETUSER", "default", "resetkeys", "~*");

/** Renewals of `jobId`'s coordinator lease Redis has refused so far (its ACL log counts them). */
async function refusedRenewals(jobId: string): Promise<number> {
  const entries = (await admin.call("ACL", "LOG")) as unknown[][];
  let n = 0;
  for (const e of entries) {
    const fields = new Map<unknown, unknown>();
    for (let i = 0; i + 1 < e.length; i += 2) fields.set(String(e[i]), e[i + 1]);
    if (fields.get("object") === coordinatorKey(jobId)) n += Number(fields.get("count") ?? 0);
  }
  return n;
}

const LEASE_MS = 1500;

function coordinate(store: JobStore, config: JobConfig, task: Task, more: Partial<DistributedRunOptions>) {
  return runDistributed({
    store,
    config,
    tasks: [task],
    redisUrl: lab.redis.url,
    resume: false,
    pollMs: 50,
    leaseMs: LEASE_MS,
    log: () => undefined,
    ...more,
  });
}

describe("a coordinator whose lease renewals Redis refuses", () => {
  it("says so once, records nothing while unsure, and leaves finished trials to the coordinator that took the job", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "refused", attempts: 1, seed: 5 });
    const [p] = planTrials(config);
    if (p === undefined) throw new Error("no plan");
    const id = queueJobId("refused", p.trialId);
    const store = await JobStore.open(join(lab.tmp, "jobs-a"));
    const lines: string[] = [];
    const stop = new AbortController();
    const run = coordinate(store, config, task, { log: (l) => lines.push(l), signal: stop.signal });
    const ended = run.then(
      () => null,
      (e: unknown) => e,
    );
    try {
      await until(async () => (await queue.getJobState(id)) !== "unknown", 10_000, "trial queued");
      await refuseRenewals();
      await until(
        () => lines.some((l) => /no trial is recorded until Redis renews it/.test(l)),
        10_000,
        "pause",
      );
      // A worker finishes the trial while the coordinator cannot know the job is still its own.
      await queue.resume();
      await until(async () => (await queue.getJobState(id)) === "completed", 60_000, "trial completed");
      // The coordinator polls every 50 ms: three more refused renewals (500 ms apart) give it
      // dozens of polls with the finished trial in the queue, and renewals refused for seconds.
      const refusedAtCompletion = await refusedRenewals("refused");
      await until(
        async () => (await refusedRenewals("refused")) >= refusedAtCompletion + 3,
        10_000,
        "renewals refused after the trial finished",
      );
      expect(await store.listTrials("refused")).toEqual([]);
      const refusals = lines.filter((l) => /Redis refused to renew the coordinator lease \(NOPERM/.test(l));
      // Renewed every 500 ms for seconds, and said once.
      expect(refusals, lines.join("\n")).toHaveLength(1);
      expect(refusals[0]).toMatch(/^job refused: .*trials are recorded only while the lease is surely held$/);

      // The hold lapses; another coordinator takes the job.
      await until(async () => (await admin.exists(coordinatorKey("refused"))) === 0, 10_000, "lease lapsed");
      // Taken before Redis accepts this coordinator's renewals again, so it cannot take it back first.
      await admin.set(
        coordinatorKey("refused"),
        JSON.stringify({ host: "elsewhere", pid: 1, id: "b" }),
        "PX",
        60_000,
      );
      await acceptRenewals();
      const error = await ended;
      expect(String(error)).toMatch(/job refused: another coordinator took this job/);
      // Nothing recorded here, and the finished trial was left in the queue, not lost.
      expect(await store.listTrials("refused")).toEqual([]);
      expect(await store.jobStatus("refused")).toBe("interrupted");
      expect(await queue.getJobState(id)).toBe("completed");
    } finally {
      await acceptRenewals();
      stop.abort();
      await run.catch(() => undefined);
    }

    // Once the other coordinator has ended, resuming collects the trial, exactly once.
    await admin.del(coordinatorKey("refused"));
    const outcome = await coordinate(store, config, task, { resume: true });
    expect(outcome.interrupted).toBe(false);
    expect((await store.listTrials("refused")).map((t) => t.trial_id)).toEqual([p.trialId]);
    expect(await queue.getJobState(id)).toBe("unknown");
    await store.close();
  }, 120_000);

  it("takes a lapsed lease back when nobody else did, and records what finished meanwhile", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "lapsed", attempts: 1, seed: 6 });
    const [p] = planTrials(config);
    if (p === undefined) throw new Error("no plan");
    const id = queueJobId("lapsed", p.trialId);
    const store = await JobStore.open(join(lab.tmp, "jobs-b"));
    await queue.pause();
    const lines: string[] = [];
    const stop = new AbortController();
    const run = coordinate(store, config, task, { log: (l) => lines.push(l), signal: stop.signal });
    try {
      await until(async () => (await queue.getJobState(id)) !== "unknown", 10_000, "trial queued");
      await refuseRenewals();
      await until(async () => (await admin.exists(coordinatorKey("lapsed"))) === 0, 10_000, "lease lapsed");
      await queue.resume();
      await until(async () => (await queue.getJobState(id)) === "completed", 60_000, "trial completed").catch(
        (e: unknown) => {
          throw new Error(`${String(e)}\n${lab.procs.map((p) => p.stderr()).join("")}`);
        },
      );
      expect(await store.listTrials("lapsed")).toEqual([]);
    } catch (e) {
      stop.abort();
      throw e;
    } finally {
      await acceptRenewals();
    }
    const outcome = await run;
    expect(outcome.interrupted).toBe(false);
    expect(outcome.trials.map((t) => t.trial_id)).toEqual([p.trialId]);
    expect(lines).toContain(
      "job lapsed: coordinator lease had lapsed and is taken again (no other coordinator took the job); recording goes on",
    );
    await store.close();
  }, 120_000);
});
