import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BlobStore,
  queueJobId,
  runDistributed,
  TRIAL_QUEUE,
  trialJobData,
  uploadTask,
} from "../../src/distributed/index.js";
import { planTrials } from "../../src/runner/index.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig } from "../runner/helpers.js";
import { type CliProcess, until } from "../support/cli-process.js";
import { startWorker, useQueueLab } from "../support/queue-lab.js";

const lab = useQueueLab("wstop");
let conn: Redis;
let queue: Queue;
const LEASES = { lockMs: 3000, stalledMs: 1000 };
// A test may start a worker (12 s at load 15 on 2 cores): the tests' timeouts leave room for that.

/**
 * The worker the foreign-version, rerun, outage and stop-while-down tests share, started by the
 * first of them (the last one stops it): one start instead of four. Each test reads only what the
 * worker logged from `from` on, its own part of the output.
 */
let shared: CliProcess | undefined;
async function sharedWorker(): Promise<{ w: CliProcess; from: number }> {
  if (shared === undefined || shared.child.exitCode !== null || shared.child.signalCode !== null)
    shared = startWorker(lab, "shared", LEASES);
  await shared.waitFor(/2 at once/);
  return { w: shared, from: shared.stderr().length };
}

/** Waits until what `w` logged from `from` on matches `re`. */
const logged = (w: CliProcess, from: number, re: RegExp): Promise<void> =>
  until(() => re.test(w.stderr().slice(from)), 60_000, `${re} in:\n${w.stderr().slice(from)}`);

beforeAll(() => {
  conn = new Redis(lab.redis.url, { maxRetriesPerRequest: null });
  queue = new Queue(TRIAL_QUEUE, { connection: conn });
});

afterAll(async () => {
  await queue?.close();
  conn?.disconnect();
});

describe("a worker", () => {
  it("puts the trial it runs back in the queue when stopped, without using an attempt", async () => {
    // The slow task's verifier hangs: the trial is surely running when the worker is stopped.
    const task = await fixtureTask("slow");
    const config = jobConfig([task], { job_id: "stopped", attempts: 1, seed: 1 });
    const [p] = planTrials(config);
    if (p === undefined) throw new Error("no plan");
    const id = queueJobId("stopped", p.trialId);
    const ref = await uploadTask(new BlobStore(conn), task);
    await queue.add("trial", trialJobData(config, p, ref, null), { jobId: id, attempts: 3 });
    for (let stop = 0; stop < 2; stop++) {
      const w = startWorker(lab, `stop${stop}`, LEASES);
      await until(async () => (await queue.getJobState(id)) === "active", 20_000, "trial running");
      await w.waitFor(/^start\s+stopped__/m);
      w.child.kill("SIGTERM");
      expect(await w.exited).toBe(0);
      const job = await queue.getJob(id);
      expect(await queue.getJobState(id)).toBe("waiting");
      expect(job?.attemptsMade).toBe(0);
      expect(w.stderr()).not.toMatch(/^failed /m);
    }
    await queue.remove(id);
  }, 120_000);

  it("leaves a trial of another longhaul version queued, logged once, without failing it", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "foreign", attempts: 2, seed: 2 });
    const ref = await uploadTask(new BlobStore(conn), task);
    // Up before the trials are queued: everything it logs about them comes after `from`.
    const { w, from } = await sharedWorker();
    const ids: string[] = [];
    for (const p of planTrials(config)) {
      const id = queueJobId("foreign", p.trialId);
      ids.push(id);
      await queue.add(
        "trial",
        { ...trialJobData(config, p, ref, null), longhaul_version: "0.0.0-elsewhere" },
        { jobId: id },
      );
    }
    await logged(w, from, /trials of longhaul 0\.0\.0-elsewhere left queued .*this worker runs/);
    await until(
      async () => (await Promise.all(ids.map((i) => queue.getJobState(i)))).every((s) => s === "delayed"),
      10_000,
      "trials delayed",
    );
    for (const i of ids) expect((await queue.getJob(i))?.attemptsMade).toBe(0);
    expect(
      w
        .stderr()
        .slice(from)
        .match(/left queued/g),
    ).toHaveLength(1);
    expect(w.stderr().slice(from)).not.toMatch(/^(start|failed) /m);
    for (const i of ids) await queue.remove(i);
  }, 90_000);

  it("runs again, rather than records, a finished queue trial of another run under this trial's id", async () => {
    const task = await fixtureTask("seeded");
    await sharedWorker();
    // An older job of the same name left a finished trial with another seed under the same id.
    const config = jobConfig([task], { job_id: "rerun", attempts: 1, seed: 3 });
    const older = jobConfig([task], { job_id: "rerun", attempts: 1, seed: 99 });
    const [p] = planTrials(config);
    const [q] = planTrials(older);
    if (p === undefined || q === undefined || p.seed === q.seed) throw new Error("plans do not differ");
    const id = queueJobId("rerun", p.trialId);
    const ref = await uploadTask(new BlobStore(conn), task);
    await queue.add("trial", trialJobData(older, q, ref, null), { jobId: id });
    await until(async () => (await queue.getJobState(id)) === "completed", 20_000, "older trial done");
    const store = await JobStore.open(join(lab.tmp, "jobs-rerun"));
    const lines: string[] = [];
    const outcome = await runDistributed({
      store,
      config,
      tasks: [task],
      redisUrl: lab.redis.url,
      resume: true,
      pollMs: 50,
      log: (l) => lines.push(l),
    });
    await store.close();
    expect(lines).toContain(
      `trial ${p.trialId}: the queue held another run's trial (seed ${q.seed}, expected ${p.seed}); it runs again`,
    );
    expect(outcome.trials).toHaveLength(1);
    expect(outcome.trials[0]?.seed).toBe(p.seed);
    expect(outcome.trials[0]?.outcome).toBe("completed");
  }, 90_000);

  // These two stop the lab's Redis for a while.
  it("logs a Redis outage once, not once per reconnect attempt", async () => {
    const { w, from } = await sharedWorker();
    await lab.redis.crash();
    // Each connection retries after 100, 200, 300, ... ms (connectRedis): 1.5 s after the loss is
    // seen, every one of them has been refused at least five times, enough for a line per attempt
    // to break the bound below.
    await logged(w, from, /Redis connection lost/);
    await new Promise((r) => setTimeout(r, 1500));
    await lab.redis.restart();
    await logged(w, from, /Redis connection back/);
    await new Promise((r) => setTimeout(r, 500));
    const refused =
      w
        .stderr()
        .slice(from)
        .match(/ECONNREFUSED/g) ?? [];
    // One line from the worker's connection and one from BullMQ's: not one per attempt.
    expect(refused.length, w.stderr()).toBeLessThanOrEqual(2);
  }, 90_000);

  it("stops at SIGTERM while Redis is down, instead of waiting for it forever", async () => {
    const { w, from } = await sharedWorker();
    await lab.redis.crash();
    try {
      await logged(w, from, /Redis connection lost/);
      const t0 = Date.now();
      w.child.kill("SIGTERM");
      const code = await Promise.race([
        w.exited,
        new Promise((r) => setTimeout(() => r("still running"), 25_000)),
      ]);
      expect(code, w.stderr()).toBe(0);
      expect(Date.now() - t0).toBeLessThan(25_000);
      expect(w.stderr()).toMatch(/Redis did not answer .*stopping without it/);
      // A connection known to be down is not waited for (the 10 s wait is for a server that is
      // connected but silent): the stop takes the signal's handling, not the whole wait.
      expect(w.stderr()).toMatch(/Redis did not answer \(its connection is down\)/);
      expect(Date.now() - t0).toBeLessThan(8000);
    } finally {
      await w.kill9();
      await lab.redis.restart();
    }
  }, 60_000);

  it("removes the trial folders a worker killed with kill -9 left in its cache when the next one starts", async () => {
    const task = await fixtureTask("slow");
    const config = jobConfig([task], { job_id: "killed", attempts: 1, seed: 3 });
    const [p] = planTrials(config);
    if (p === undefined) throw new Error("no plan");
    const id = queueJobId("killed", p.trialId);
    const ref = await uploadTask(new BlobStore(conn), task);
    await queue.add("trial", trialJobData(config, p, ref, null), { jobId: id, attempts: 3 });
    const trials = join(lab.tmp, "cache-killed", "trials");
    /** Trial folders in the cache, wherever the worker keeps them. */
    const inFlight = (): string[] =>
      existsSync(trials)
        ? readdirSync(trials, { recursive: true, encoding: "utf8" }).filter(
            (n) => n.includes("killed") || n.includes(p.trialId),
          )
        : [];
    const first = startWorker(lab, "killed", LEASES);
    await first.waitFor(/^start\s+killed__/m);
    // The slow task's verifier hangs: once its folder exists, the trial runs until the kill.
    await until(() => inFlight().length > 0, 20_000, "trial folder made");
    await first.kill9();
    const left = inFlight();
    expect(left.length, "the killed worker's trial folder").toBeGreaterThan(0);
    const second = startWorker(lab, "killed", LEASES);
    await second.waitFor(/removed the trial folders a stopped worker left in the cache/);
    const now = inFlight();
    for (const l of left) expect(now, l).not.toContain(l);
    await second.kill9();
    await queue.remove(id).catch(() => undefined);
  }, 120_000);
});
