import { join } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BlobStore,
  clearQueuedJob,
  type DistributedRunOptions,
  queueJobId,
  runDistributed,
  TRIAL_QUEUE,
  trialJobData,
  uploadTask,
} from "../../src/distributed/index.js";
import { planTrials } from "../../src/runner/index.js";
import { type JobConfig, JobStore } from "../../src/store/index.js";
import type { Task } from "../../src/task/types.js";
import { fixtureTask, jobConfig } from "../runner/helpers.js";
import { until } from "../support/cli-process.js";
import { useQueueLab } from "../support/queue-lab.js";

// No workers here: a coordinator's trials stay queued, which is what these tests look at.
const lab = useQueueLab("guard");
let conn: Redis;
let queue: Queue;

beforeAll(() => {
  conn = new Redis(lab.redis.url, { maxRetriesPerRequest: null });
  queue = new Queue(TRIAL_QUEUE, { connection: conn });
});

afterAll(async () => {
  await queue?.close();
  conn?.disconnect();
});

const coordinate = (
  store: JobStore,
  config: JobConfig,
  task: Task,
  more: Partial<DistributedRunOptions> = {},
) =>
  runDistributed({
    store,
    config,
    tasks: [task],
    redisUrl: lab.redis.url,
    resume: false,
    pollMs: 50,
    log: () => undefined,
    ...more,
  });

const queued = async (id: string): Promise<boolean> => (await queue.getJobState(id)) !== "unknown";

describe("one coordinator per job", () => {
  it("refuses a second coordinator of a running job, naming it, and lets one in once the first ends", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "twice", attempts: 2, seed: 1 });
    const store = await JobStore.open(join(lab.tmp, "jobs-twice"));
    const first = new AbortController();
    const run = coordinate(store, config, task, { signal: first.signal });
    const [p] = planTrials(config);
    if (p === undefined) throw new Error("no plan");
    await until(() => queued(queueJobId("twice", p.trialId)), 10_000, "trials queued");
    const other = await JobStore.open(join(lab.tmp, "jobs-twice"));
    await expect(coordinate(other, config, task, { resume: true })).rejects.toThrow(
      /job twice already has a coordinator \(.+:\d+\) on this queue/,
    );
    first.abort();
    expect((await run).interrupted).toBe(true);
    expect(await conn.exists("longhaul:coord:twice")).toBe(0);
    // The first one has ended: a resume is let in (and stopped at once, workers being absent).
    const again = new AbortController();
    const resumed = coordinate(other, config, task, { resume: true, signal: again.signal });
    await until(async () => (await conn.exists("longhaul:coord:twice")) === 1, 10_000, "lease taken");
    again.abort();
    expect((await resumed).interrupted).toBe(true);
    await store.close();
    await other.close();
  }, 30_000);

  it("enqueues again a waited-for trial that is neither recorded nor queued", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "lost", attempts: 1, seed: 2 });
    const store = await JobStore.open(join(lab.tmp, "jobs-lost"));
    const lines: string[] = [];
    const stop = new AbortController();
    const run = coordinate(store, config, task, {
      signal: stop.signal,
      sweepMs: 200,
      log: (l) => lines.push(l),
    });
    const [p] = planTrials(config);
    if (p === undefined) throw new Error("no plan");
    const id = queueJobId("lost", p.trialId);
    await until(() => queued(id), 10_000, "trial queued");
    // Redis loses it (a restart without persistence, a hand-made removal).
    await queue.remove(id);
    await until(() => queued(id), 10_000, "trial queued again");
    stop.abort();
    await run;
    await store.close();
    expect(lines).toContain("1 trial(s) of job lost were neither recorded nor queued: enqueued again");
  }, 30_000);

  it("a new job refuses to start while the queue holds an older job's trials of the same name", async () => {
    const task = await fixtureTask("seeded");
    const old = jobConfig([task], { job_id: "samename", attempts: 1, seed: 3 });
    const [p] = planTrials(old);
    if (p === undefined) throw new Error("no plan");
    const ref = await uploadTask(new BlobStore(conn), task);
    await queue.add("trial", trialJobData(old, p, ref, null), {
      jobId: queueJobId("samename", "other-task__oracle__a1"),
    });
    const store = await JobStore.open(join(lab.tmp, "jobs-samename"));
    await expect(coordinate(store, old, task)).rejects.toThrow(
      /still holds 1 trial\(s\) of an earlier job named samename: .*longhaul queue clear .* --job samename/,
    );
    expect(store.hasJob("samename")).toBe(false);
    // queue clear removes the older job's trials (and is refused while a coordinator runs it).
    const stop = new AbortController();
    await conn.set("longhaul:coord:samename", "{}", "PX", 5000);
    await expect(clearQueuedJob(lab.redis.url, "samename")).rejects.toThrow(/has a coordinator running/);
    await conn.del("longhaul:coord:samename");
    expect(await clearQueuedJob(lab.redis.url, "samename")).toEqual({ removed: 1, running: [] });
    const run = coordinate(store, old, task, { signal: stop.signal });
    await until(() => queued(queueJobId("samename", p.trialId)), 10_000, "the new job's trial queued");
    stop.abort();
    expect((await run).interrupted).toBe(true);
    await store.close();
  }, 30_000);

  it("stops at Ctrl-C while Redis is down, the job marked interrupted", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "outage", attempts: 1, seed: 4 });
    const store = await JobStore.open(join(lab.tmp, "jobs-outage"));
    const stop = new AbortController();
    const run = coordinate(store, config, task, { signal: stop.signal });
    const [p] = planTrials(config);
    if (p === undefined) throw new Error("no plan");
    await until(() => queued(queueJobId("outage", p.trialId)), 10_000, "trial queued");
    await lab.redis.crash();
    try {
      await new Promise((r) => setTimeout(r, 500));
      const t0 = Date.now();
      stop.abort();
      const outcome = await run;
      expect(outcome.interrupted).toBe(true);
      expect(Date.now() - t0).toBeLessThan(5000);
      expect((await store.listJobs()).find((j) => j.id === "outage")?.status).toBe("interrupted");
    } finally {
      await lab.redis.restart();
      await store.close();
    }
  }, 30_000);
});
