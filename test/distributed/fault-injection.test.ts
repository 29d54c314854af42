import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { TRIAL_QUEUE } from "../../src/distributed/index.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { FIXTURES, fixtureTask, jobConfig } from "../runner/helpers.js";
import { type CliProcess, startCli, untilCount } from "../support/cli-process.js";
import { startWorker, useQueueLab } from "../support/queue-lab.js";

const JOB = "dist50";
const SEED = 4242;
const TRIALS = 50;

const lab = useQueueLab("dist");

// Short leases so a killed worker's trials come back within seconds, but not so short that a live
// worker loses them: with 1.5 s (renewed every 0.75 s) a worker starved at load 15-20 lost its
// trials again and again, each ran several times, and some were given up ("job stalled more
// than allowable limit": infra_error, the resumed coordinator exiting 1).
const worker = (name: string): CliProcess => startWorker(lab, name, { lockMs: 5000, stalledMs: 1000 });

function coordinator(resume: boolean): CliProcess {
  const args = resume
    ? ["run", "--resume", "--job", JOB]
    : [
        "run",
        join(FIXTURES, "seeded"),
        "-a",
        "oracle",
        "-k",
        String(TRIALS),
        "--seed",
        String(SEED),
        "--job",
        JOB,
      ];
  const p = startCli([...args, "--jobs-dir", join(lab.tmp, "dist"), "--queue", lab.redis.url]);
  lab.procs.push(p);
  return p;
}

/**
 * How long no trial may be recorded before the run counts as stuck. A bound on progress, not on the
 * whole run: at load 18 on 2 cores the 100 sandboxed trials of both runs took over 300 s, with
 * records 10 to 40 s apart; a queue that hangs stops recording.
 */
const STALL_MS = 60_000;

/** The trials the job's store in `store` (the coordinator's, or the local run's) holds a result of. */
function recorded(store = "dist"): string[] {
  const dir = join(lab.tmp, store, JOB);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((d) => existsSync(join(dir, d, "result.json")));
}

function doneLines(stderr: string): string[] {
  return [...stderr.matchAll(/^done\s+(\S+)/gm)].map((m) => m[1] ?? "");
}

describe("a 50-trial job over two workers with kill -9 of a worker, the coordinator and Redis", () => {
  it("records every trial exactly once, with the seeds and rewards of the same job run locally", async () => {
    const task = await fixtureTask("seeded");
    const w1 = worker("w1");
    const w2 = worker("w2");
    await Promise.all([w1.waitFor(/2 at once/), w2.waitFor(/2 at once/)]);
    // The local reference runs alongside (same job id, seed and plan; its own store), started once
    // the workers are up so that its sandboxes do not slow their start on a loaded host.
    const localStore = await JobStore.open(join(lab.tmp, "local"));
    const local = runJob({
      store: localStore,
      config: jobConfig([task], { job_id: JOB, attempts: TRIALS, seed: SEED, concurrency: 2 }),
      tasks: [task],
      provider: getSandboxProvider("bwrap"),
      resume: false,
    });

    const c1 = coordinator(false);
    const count = (): number => recorded().length;
    await untilCount(count, 1, STALL_MS, "1 trial recorded");
    await untilCount(count, 8, STALL_MS, "8 trials recorded");
    await w1.kill9();
    // A replacement keeps two workers on the job; w1's unfinished trials wait for their leases.
    const w3 = worker("w3");
    await untilCount(count, 16, STALL_MS, "16 trials recorded");
    await c1.kill9();
    const beforeRestart = new Set(recorded());
    // Workers go on while no coordinator is attached; then Redis itself crashes and comes back.
    // Counted in Redis, not from the workers' "done" lines: a worker logs "done" just before
    // BullMQ moves the job to completed, so a line alone does not mean Redis holds the result yet.
    const completedNow = async (): Promise<number> => {
      const probe = new Redis(lab.redis.url, { maxRetriesPerRequest: null });
      const probeQueue = new Queue(TRIAL_QUEUE, { connection: probe });
      try {
        return (await probeQueue.getJobCounts("completed")).completed ?? 0;
      } finally {
        await probeQueue.close();
        probe.disconnect();
      }
    };
    const atKill = await completedNow();
    const beforeCrash = await untilCount(
      completedNow,
      atKill + 2,
      STALL_MS,
      "trials completed with no coordinator",
    );
    expect(beforeCrash).toBeGreaterThanOrEqual(atKill + 2);
    await lab.redis.crash();
    await lab.redis.restart();
    // What finished while no coordinator was attached survived the crash, waiting to be collected.
    expect(await completedNow()).toBeGreaterThanOrEqual(beforeCrash);
    const c2 = coordinator(true);
    // It records the rest, then prints its tables and exits: stuck once nothing moves for STALL_MS.
    const ended = (p: CliProcess): boolean => p.child.exitCode !== null || p.child.signalCode !== null;
    const c2Progress = (): number => (ended(c2) ? TRIALS + 1 : count());
    await untilCount(c2Progress, TRIALS + 1, STALL_MS, "the resumed coordinator recording and exiting");
    expect(await c2.exited, c2.stderr()).toBe(0);
    // The same final tables as a local run, on stdout.
    expect(c2.stdout()).toContain(`job ${JOB} (`);
    expect(c2.stdout()).toMatch(/per category\n/);
    expect(c2.stdout()).toMatch(new RegExp(`fixtures\\s+seeded\\s+oracle\\s+-\\s+${TRIALS}\\s`));

    let localEnded = false;
    local.then(
      () => {
        localEnded = true;
      },
      () => {
        localEnded = true;
      },
    );
    const localCount = (): number => (localEnded ? TRIALS : recorded("local").length);
    await untilCount(localCount, TRIALS, STALL_MS, "the local run recording");
    const localOutcome = await local;
    await localStore.close();
    const store = await JobStore.open(join(lab.tmp, "dist"));
    const trials = await store.listTrials(JOB);
    await store.close();

    // Same plan, same seeds, same rewards as the local run, one row per trial.
    const key = (t: { trial_id: string; seed: number; reward: number | null }) =>
      `${t.trial_id} ${t.seed} ${t.reward}`;
    expect(trials).toHaveLength(TRIALS);
    expect(new Set(trials.map((t) => t.trial_id)).size).toBe(TRIALS);
    expect(trials.map(key).sort()).toEqual(localOutcome.trials.map(key).sort());
    expect(trials.every((t) => t.outcome === "completed")).toBe(true);
    expect(new Set(trials.map((t) => t.reward)).size).toBeGreaterThan(10);

    // Exactly once: the restarted coordinator kept what the first one recorded and recorded only
    // the rest, each once.
    const resumed = doneLines(c2.stderr());
    expect(c2.stderr()).toMatch(new RegExp(`job: ${TRIALS} trials \\(${beforeRestart.size} already done\\)`));
    expect(resumed.filter((id) => beforeRestart.has(id))).toEqual([]);
    expect(new Set(resumed).size).toBe(resumed.length);
    expect(resumed.length).toBe(TRIALS - beforeRestart.size);
    // c1's record of its trials is still what the store holds: no trial was recorded twice.
    expect(new Set(doneLines(c1.stderr())).size).toBe(doneLines(c1.stderr()).length);

    // The killed worker's unfinished trials ran again on another worker and were recorded.
    const w1Started = [...w1.stderr().matchAll(new RegExp(`^start\\s+${JOB}__(\\S+)`, "gm"))].map(
      (m) => m[1],
    );
    const w1Done = new Set(
      [...w1.stderr().matchAll(new RegExp(`^done\\s+${JOB}__(\\S+)`, "gm"))].map((m) => m[1]),
    );
    const orphaned = w1Started.filter((id) => !w1Done.has(id));
    expect(orphaned.length).toBeGreaterThan(0);
    const others = w2.stderr() + w3.stderr();
    for (const id of orphaned) expect(others).toContain(`done   ${JOB}__${id} `);

    // Redis forgets a trial only once it is recorded: nothing of the job is left in the queue.
    const conn = new Redis(lab.redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(TRIAL_QUEUE, { connection: conn });
    const left = await queue.getJobs(["completed", "failed", "active", "waiting", "delayed", "prioritized"]);
    expect(left.filter((j) => j?.id?.startsWith(`${JOB}__`))).toEqual([]);
    await queue.close();
    conn.disconnect();
    // Only a backstop: the waits above fail a stalled run within STALL_MS of its last progress.
  }, 900_000);
});
