import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/index.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig, tempDir } from "./helpers.js";

const STORE = pathToFileURL(resolve(import.meta.dirname, "../../src/store/index.ts")).href;
let store: JobStore | undefined;
let holder: ChildProcess | undefined;
afterEach(async () => {
  holder?.kill("SIGKILL");
  holder = undefined;
  await store?.close();
  store = undefined;
});

/**
 * Another process that takes the job's run lock and keeps it until it is killed. It drops the
 * lock object and collects garbage first: a lock must not depend on its holder keeping a reference.
 */
function holdLock(jobsDir: string, jobId: string): Promise<ChildProcess> {
  const code = `import { JobStore } from ${JSON.stringify(STORE)};
const s = await JobStore.open(${JSON.stringify(jobsDir)});
s.lockJob(${JSON.stringify(jobId)});
globalThis.gc();
await new Promise((r) => setTimeout(r, 100));
globalThis.gc();
console.log("locked");
setInterval(() => undefined, 1000);`;
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", code],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((res, rej) => {
    child.stdout?.on("data", (d: Buffer) => {
      if (d.toString().includes("locked")) res(child);
    });
    child.on("exit", (c) => rej(new Error(`lock holder exited with ${c}`)));
  });
}

const exited = (c: ChildProcess): Promise<void> => new Promise((r) => c.on("exit", () => r()));

describe("one process runs a job at a time", () => {
  it("a second run of a job is refused while another holds it, and kill -9 frees it", async () => {
    const jobsDir = tempDir("lock");
    store = await JobStore.open(jobsDir);
    const task = await fixtureTask("trivial");
    const config = jobConfig([task]);
    await store.createJob(config);
    // A trial the other process is running: no result.json yet, its logs being written.
    const running = store.trialDir(config.job_id, "trivial__oracle__a1");
    mkdirSync(join(running, "agent"), { recursive: true });
    writeFileSync(join(running, "agent", "stdout.txt"), "working\n");

    holder = await holdLock(jobsDir, config.job_id);
    const run = () =>
      runJob({
        store: store as JobStore,
        config,
        tasks: [task],
        provider: getSandboxProvider("bwrap"),
        resume: true,
      });
    const refused = await run().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UserError);
    expect(String(refused)).toMatch(/job job-under-test is being run by another longhaul process/);
    // The other run's trial was left alone (resume would have removed it and run it again).
    expect(existsSync(join(running, "agent", "stdout.txt"))).toBe(true);

    // The holder dies without a chance to clean up: the kernel drops its lock with it.
    holder.kill("SIGKILL");
    await exited(holder);
    holder = undefined;
    const out = await run();
    expect(out.trials.map((t) => [t.trial_id, t.outcome])).toEqual([["trivial__oracle__a1", "completed"]]);
    // Released when the run ends: the job can be taken again at once.
    store.lockJob(config.job_id).release();
  }, 30_000);

  it("two new jobs of one name: the second is refused, the first's config is kept", async () => {
    const jobsDir = tempDir("lock-new");
    store = await JobStore.open(jobsDir);
    const task = await fixtureTask("trivial");
    const lock = store.lockJob("job-under-test");
    try {
      const config = jobConfig([task], { agents: ["nop"] });
      const refused = await runJob({
        store,
        config,
        tasks: [task],
        provider: getSandboxProvider("bwrap"),
        resume: false,
      }).catch((e: unknown) => e);
      expect(String(refused)).toMatch(/is being run by another longhaul process/);
      expect(store.hasJob("job-under-test")).toBe(false);
    } finally {
      lock.release();
    }
  });
});
