/**
 * Distributed trials on the BullMQ/Redis queue: throughput with sleep-bound trials (the oracle of
 * test/fixtures/tasks/sleepy waits 1 s) for 1, 2 and 4 worker processes (one trial at a time
 * each), the queue's overhead per trial against the same trials run locally one at a time, and
 * the coordinator's memory with 10,000 trials queued. Starts its own redis-server.
 *
 *   npm run build && npx tsx bench/distributed.ts [trials=12]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { runDistributed, TRIAL_QUEUE } from "../src/distributed/index.js";
import { runJob } from "../src/runner/index.js";
import { getSandboxProvider } from "../src/sandbox/registry.js";
import type { JobConfig } from "../src/store/index.js";
import { JobStore } from "../src/store/index.js";
import { loadTask } from "../src/task/index.js";
import { startCli } from "../test/support/cli-process.js";
import { startRedis } from "../test/support/redis-server.js";

const trials = Number(process.argv[2] ?? 12);
const task = await loadTask(resolve(import.meta.dirname, "../test/fixtures/tasks/sleepy"));
const redis = await startRedis();
const tmp = mkdtempSync(join(tmpdir(), "longhaul-bench-dist-"));

function config(jobId: string, attempts: number): JobConfig {
  return {
    schema_version: 1,
    job_id: jobId,
    created_at: new Date().toISOString(),
    tasks: [{ name: task.name, path: task.dir, checksum: task.checksum }],
    agents: ["oracle"],
    models: [null],
    attempts,
    concurrency: 1,
    timeout_multiplier: 1,
    retries: 0,
    seed: 1,
    sandbox: "bwrap",
    agent_options: {},
  };
}

try {
  // Local reference: the same trials, one at a time, no queue.
  const localStore = await JobStore.open(join(tmp, "local"));
  let t0 = performance.now();
  await runJob({
    store: localStore,
    config: config("local", trials),
    tasks: [task],
    provider: getSandboxProvider("bwrap"),
    resume: false,
  });
  const localSec = (performance.now() - t0) / 1000;
  await localStore.close();

  const rows: { workers: number; sec: number; perSec: number }[] = [];
  for (const n of [1, 2, 4]) {
    const workers = Array.from({ length: n }, (_, i) =>
      startCli(["worker", "--redis", redis.url, "-n", "1", "--cache", join(tmp, `cache-${n}-${i}`)]),
    );
    await Promise.all(workers.map((w) => w.waitFor(/1 at once/, 60_000)));
    const store = await JobStore.open(join(tmp, `w${n}`));
    t0 = performance.now();
    await runDistributed({
      store,
      config: config(`w${n}`, trials),
      tasks: [task],
      redisUrl: redis.url,
      resume: false,
      pollMs: 50,
      log: () => undefined,
    });
    const sec = (performance.now() - t0) / 1000;
    await store.close();
    for (const w of workers) await w.kill9();
    rows.push({ workers: n, sec, perSec: trials / sec });
  }

  // 10,000 trials queued, no worker: the coordinator's memory once all are in Redis.
  const store = await JobStore.open(join(tmp, "big"));
  const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
  const queue = new Queue(TRIAL_QUEUE, { connection: conn });
  const stop = new AbortController();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 50);
  t0 = performance.now();
  const big = runDistributed({
    store,
    config: config("big", 10_000),
    tasks: [task],
    redisUrl: redis.url,
    resume: false,
    signal: stop.signal,
    log: () => undefined,
  });
  while (((await queue.getJobCounts("waiting")).waiting ?? 0) < 10_000)
    await new Promise((r) => setTimeout(r, 100));
  const enqueueSec = (performance.now() - t0) / 1000;
  // A few polls with the whole backlog queued.
  await new Promise((r) => setTimeout(r, 2000));
  const rssQueued = process.memoryUsage().rss;
  stop.abort();
  await big;
  clearInterval(sampler);
  await queue.obliterate({ force: true });
  await queue.close();
  conn.disconnect();
  await store.close();

  const one = rows[0]?.perSec ?? Number.NaN;
  const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
  console.log(`sleep-bound trials (oracle sleeps 1 s), ${trials} per run, one trial at a time per worker`);
  console.log("workers  wall s  trials/s  ratio to 1");
  for (const r of rows) {
    console.log(
      `${String(r.workers).padEnd(7)}  ${r.sec.toFixed(1).padEnd(6)}  ${r.perSec.toFixed(2).padEnd(8)}  ${(r.perSec / one).toFixed(2)}`,
    );
  }
  const w1 = rows[0]?.sec ?? Number.NaN;
  console.log(`local, one at a time: ${localSec.toFixed(1)} s (${(localSec / trials).toFixed(2)} s/trial)`);
  console.log(
    `queue overhead per trial (1 worker vs local): ${(((w1 - localSec) / trials) * 1000).toFixed(0)} ms`,
  );
  console.log(
    `10,000 trials enqueued in ${enqueueSec.toFixed(1)} s; coordinator RSS ${mb(rssBefore)} MB before, ${mb(rssQueued)} MB with all queued, peak ${mb(rssPeak)} MB`,
  );
} finally {
  await redis.stop();
  rmSync(tmp, { recursive: true, force: true });
}
