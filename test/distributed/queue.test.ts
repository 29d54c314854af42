import { hostname } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BlobStore,
  type DistributedRunOptions,
  queueJobId,
  queueStatus,
  renderQueueStatus,
  runDistributed,
  TRIAL_QUEUE,
  trialJobData,
  uploadTask,
} from "../../src/distributed/index.js";
import { infraFailure, planTrials } from "../../src/runner/index.js";
import { type JobConfig, JobStore } from "../../src/store/index.js";
import type { Task } from "../../src/task/types.js";
import { fixtureTask, jobConfig } from "../runner/helpers.js";
import { type CliProcess, startCli, until } from "../support/cli-process.js";
import { startWorker, useQueueLab } from "../support/queue-lab.js";

const lab = useQueueLab("queue");
let conn: Redis;
let queue: Queue;
const workers: CliProcess[] = [];

beforeAll(async () => {
  for (const name of ["w1", "w2"]) workers.push(startWorker(lab, name, { lockMs: 3000, stalledMs: 1000 }));
  conn = new Redis(lab.redis.url, { maxRetriesPerRequest: null });
  queue = new Queue(TRIAL_QUEUE, { connection: conn });
  await Promise.all(workers.map((w) => w.waitFor(/2 at once/)));
  // waitFor's own 60 s bound on a worker's start (12 s at load 15) holds, not a shorter hook's.
}, 90_000);

// Runs before the lab's own clean-up (after-hooks run in reverse order).
afterAll(async () => {
  await queue?.close();
  conn?.disconnect();
});

/** Runs `config` through the queue as a coordinator (a fresh job unless `more` says resume). */
const distribute = (
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
    ...more,
  });

describe("the trial queue", () => {
  it("discards a late result for a trial the store already holds, with a line", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "late", attempts: 2, seed: 9 });
    const [first] = planTrials(config);
    if (first === undefined) throw new Error("no plan");
    const store = await JobStore.open(join(lab.tmp, "jobs-late"));
    await store.createJob(config);
    // The trial was recorded before (by a coordinator that died before Redis forgot it) ...
    // (an agent's result: a recorded infra_error would run again on resume).
    await store.recordTrial({
      ...infraFailure(config, task, first, "recorded earlier"),
      outcome: "agent_error",
      reward: 0,
      error: { kind: "agent", message: "recorded earlier" },
    });
    // ... and a worker's result for it is still waiting in Redis.
    const ref = await uploadTask(new BlobStore(conn), task);
    const id = queueJobId("late", first.trialId);
    await queue.add("trial", trialJobData(config, first, ref, null), { jobId: id });
    // Another job's finished trial whose id starts like this job's: not this coordinator's to touch.
    const other = jobConfig([task], { job_id: "late__other", seed: 9 });
    const otherId = queueJobId("late__other", first.trialId);
    await queue.add("trial", trialJobData(other, first, ref, null), { jobId: otherId });
    for (const j of [id, otherId]) {
      await until(async () => (await queue.getJobState(j)) === "completed", 30_000, `${j} completed`);
    }

    const lines: string[] = [];
    const outcome = await distribute(store, config, task, { resume: true, log: (l) => lines.push(l) });
    await store.close();
    expect(lines).toContain(`late result for trial ${first.trialId} of job late discarded: already recorded`);
    const byId = new Map(outcome.trials.map((t) => [t.trial_id, t]));
    expect(byId.get(first.trialId)?.error?.message).toBe("recorded earlier");
    expect(outcome.trials).toHaveLength(2);
    expect(outcome.trials.find((t) => t.trial_id !== first.trialId)?.outcome).toBe("completed");
    expect(await queue.getJobState(id)).toBe("unknown");
    expect(await queue.getJobState(otherId)).toBe("completed");
    await queue.remove(otherId);
  }, 40_000);

  it("records a trial whose task bundle is missing from Redis as an infra error, without retrying it", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "nobundle", attempts: 1, seed: 4 });
    const [first] = planTrials(config);
    if (first === undefined) throw new Error("no plan");
    const store = await JobStore.open(join(lab.tmp, "jobs-nobundle"));
    await store.createJob(config);
    const ref = await uploadTask(new BlobStore(conn), task);
    const id = queueJobId("nobundle", first.trialId);
    // The queued trial names a bundle Redis does not hold (expired, evicted).
    await queue.add("trial", trialJobData(config, first, { ...ref, bundle: "0".repeat(64) }, null), {
      jobId: id,
      attempts: 3,
    });
    await until(async () => (await queue.getJobState(id)) === "failed", 30_000, "trial failed");
    expect((await queue.getJob(id))?.attemptsMade).toBe(1);
    const outcome = await distribute(store, config, task, { resume: true });
    await store.close();
    expect(outcome.trials).toHaveLength(1);
    expect(outcome.trials[0]?.outcome).toBe("infra_error");
    expect(outcome.trials[0]?.error?.message).toMatch(/blob 000000000000 is missing/);
  }, 40_000);

  it("holds a per-model rate limit across two workers", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "rate", attempts: 8, models: ["test:m"], seed: 3 });
    const store = await JobStore.open(join(lab.tmp, "jobs-rate"));
    const outcome = await distribute(store, config, task, {
      rateLimits: new Map([["test:m", { max: 2, window_ms: 1000 }]]),
    });
    await store.close();
    expect(outcome.trials).toHaveLength(8);
    const starts = outcome.trials.map((t) => Date.parse(t.timing.started_at)).sort((a, b) => a - b);
    // Two starts per second over both workers: any five starts span three windows (> 1 s), so
    // the eight span at least two seconds. Four free slots alone would start them within ~1 s.
    for (let i = 0; i + 4 < starts.length; i++)
      expect((starts[i + 4] ?? 0) - (starts[i] ?? 0)).toBeGreaterThan(800);
    expect((starts.at(-1) ?? 0) - (starts[0] ?? 0)).toBeGreaterThan(1800);
    for (const w of workers) expect(w.stderr()).toMatch(/^start\s+rate__/m);
  }, 40_000);

  it("takes a higher-priority job's trials first", async () => {
    const task = await fixtureTask("seeded");
    // Paused, the queue fills with both jobs before any worker takes a trial.
    await queue.pause();
    const low = jobConfig([task], { job_id: "prio-low", attempts: 6, seed: 5 });
    const high = jobConfig([task], { job_id: "prio-high", attempts: 2, seed: 6 });
    const stores = await Promise.all([
      JobStore.open(join(lab.tmp, "prio-low")),
      JobStore.open(join(lab.tmp, "prio-high")),
    ]);
    const start = (config: typeof low, store: JobStore, priority: number) =>
      distribute(store, config, task, { priority });
    const [lowStore, highStore] = stores;
    if (lowStore === undefined || highStore === undefined) throw new Error("no stores");
    let lowRun: ReturnType<typeof start> | undefined;
    let highRun: ReturnType<typeof start> | undefined;
    try {
      // The low-priority job is queued first: in arrival order its trials would all go first.
      lowRun = start(low, lowStore, 5);
      await until(
        async () => (await queue.getJobCounts("prioritized")).prioritized === 6,
        20_000,
        "low queued",
      );
      highRun = start(high, highStore, 1);
      await until(
        async () => (await queue.getJobCounts("prioritized")).prioritized === 8,
        20_000,
        "high queued",
      );
    } finally {
      await queue.resume();
    }
    const lowOut = await lowRun;
    const highOut = await highRun;
    for (const s of stores) await s.close();
    const starts = (o: Awaited<typeof lowRun>) =>
      (o?.trials ?? []).map((t) => Date.parse(t.timing.started_at));
    // Four slots over two workers: both high-priority trials are among the first four taken.
    const firstFour = [...starts(lowOut), ...starts(highOut)].sort((a, b) => a - b)[3] ?? 0;
    expect(starts(highOut)).toHaveLength(2);
    expect(starts(lowOut)).toHaveLength(6);
    for (const t of starts(highOut)) expect(t).toBeLessThanOrEqual(firstFour);
  }, 40_000);

  it("shows workers, running trials and the backlog", async () => {
    const task = await fixtureTask("sleepy");
    const config = jobConfig([task], { job_id: "status", attempts: 8, seed: 1 });
    const store = await JobStore.open(join(lab.tmp, "jobs-status"));
    const run = distribute(store, config, task);
    let status = await queueStatus(lab.redis.url);
    await until(
      async () => {
        status = await queueStatus(lab.redis.url);
        return status.running.length >= 3 && status.counts.waiting + status.counts.prioritized > 0;
      },
      20_000,
      "trials running with a backlog",
    );
    const names = workers.map((w) => `${hostname()}:${w.child.pid}`).sort();
    expect(status.workers.map((w) => w.name)).toEqual(names);
    for (const r of status.running) {
      expect(r.trial).toMatch(/^status__sleepy__oracle__a\d$/);
      expect(names).toContain(r.worker);
    }
    const text = renderQueueStatus(status);
    expect(text).toContain("workers (2)");
    expect(text).toMatch(/running trials \([3-4]\)/);
    for (const n of names) expect(text).toContain(n);
    // The command prints the same tables.
    const cli = startCli(["queue", "status", lab.redis.url]);
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toContain("workers (2)");
    expect(cli.stdout()).toMatch(/waiting\s+prioritized\s+delayed\s+active\s+completed\s+failed/);
    const outcome = await run;
    await store.close();
    expect(outcome.trials.map((t) => t.outcome)).toEqual(Array(8).fill("completed"));
  }, 40_000);

  it("hands a stalled worker's trial to another worker and refuses the stalled one's late result", async () => {
    const task = await fixtureTask("sleepy");
    const config = jobConfig([task], { job_id: "stall", attempts: 1, seed: 2 });
    const store = await JobStore.open(join(lab.tmp, "jobs-stall"));
    const run = distribute(store, config, task);
    let runner = "";
    await until(
      async () => {
        runner = (await queueStatus(lab.redis.url)).running[0]?.worker ?? "";
        return runner !== "";
      },
      20_000,
      "the trial running",
    );
    const stalled = workers.find((w) => `${hostname()}:${w.child.pid}` === runner);
    const other = workers.find((w) => w !== stalled);
    if (stalled === undefined || other === undefined) throw new Error(`no worker named ${runner}`);
    stalled.child.kill("SIGSTOP");
    try {
      const outcome = await run;
      expect(outcome.trials).toHaveLength(1);
      expect(outcome.trials[0]?.outcome).toBe("completed");
      expect(other.stderr()).toMatch(/^done\s+stall__sleepy__oracle__a1 /m);
    } finally {
      stalled.child.kill("SIGCONT");
      await store.close();
    }
    await stalled.waitFor(
      /(lease lost for|late result rejected \(lease lost[^)]*\): .*)stall__sleepy__oracle__a1/,
    );
    expect(stalled.stderr()).not.toMatch(/^done\s+stall__/m);
  }, 40_000);
});
