import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/index.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { createViewerApp } from "../../src/server/index.js";
import { JobStore, jobLockHeld, lockJob } from "../../src/store/index.js";
import { ROOT, startCli } from "../support/cli-process.js";
import { FIXTURES, fixtureTask, jobConfig, tempDir } from "./helpers.js";

// The built store (npm test builds first): a plain node process starts in a fraction of tsx's time.
const STORE = pathToFileURL(resolve(import.meta.dirname, "../../dist/store/index.js")).href;
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
  const child = spawn(process.execPath, ["--expose-gc", "--input-type=module", "-e", code], {
    stdio: ["ignore", "pipe", "inherit"],
  });
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

describe("a job whose runner is gone", () => {
  it("a job whose runner was killed with kill -9 shows as interrupted, with the command that resumes it", async () => {
    const jobsDir = tempDir("killed");
    const runner = startCli([
      "run",
      join(FIXTURES, "trivial"),
      "--agent",
      "shell",
      "--agent-opt",
      "cmd=sleep 60",
      "--job",
      "killed",
      "--jobs-dir",
      jobsDir,
    ]);
    const viewer = await (async () => {
      await runner.waitFor(/start {2}trivial__shell__a1/, 60_000);
      return createViewerApp({ jobsDir });
    })().catch(async (e: unknown) => {
      await runner.kill9();
      throw e;
    });
    try {
      store = await JobStore.open(jobsDir);
      const api = async (path: string): Promise<string> => (await viewer.app.request(path)).text();
      const statusIn = async (): Promise<string[]> => [
        String((await store?.listJobs())?.[0]?.status),
        (JSON.parse(await api("/api/jobs")) as { jobs: { status: string }[] }).jobs[0]?.status ?? "",
        (JSON.parse(await api("/api/jobs/killed")) as { job: { status: string } }).job.status,
      ];
      // While its runner lives the job is running, and asking never disturbs the runner.
      expect(await statusIn()).toEqual(["running", "running", "running"]);
      expect(await api("/jobs/killed")).not.toContain("--resume");

      await runner.kill9();
      // Nothing in the index changed: the record still says running, the free lock says otherwise.
      expect(await statusIn()).toEqual(["interrupted", "interrupted", "interrupted"]);
      const page = await api("/jobs/killed");
      expect(page).toContain(`<code>longhaul run --resume --job killed --jobs-dir ${jobsDir}</code>`);
      expect(await api("/")).toMatch(
        /<span title="longhaul run --resume --job killed[^"]*">interrupted<\/span>/,
      );
      expect(await store.jobStatus("killed")).toBe("interrupted");
      expect(jobLockHeld(store.jobDir("killed"))).toBe(false);
    } finally {
      await runner.kill9();
      await viewer.close();
    }
  }, 90_000);

  it("a reader asking whether a job runs never makes a runner starting that instant refuse it", async () => {
    const dir = tempDir("probe");
    // Another process reading run.lock, as jobLockHeld does for an instant, holds it a little longer.
    const code = `const B = require("better-sqlite3");
const db = new B(${JSON.stringify(join(dir, "run.lock"))});
db.exec("BEGIN");
db.prepare("SELECT count(*) FROM sqlite_master").get();
console.log("reading");
setTimeout(() => { db.exec("COMMIT"); db.close(); }, 60);`;
    const reader = spawn(process.execPath, ["-e", code], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((res, rej) => {
      reader.stdout?.on("data", (d: Buffer) => {
        if (d.toString().includes("reading")) res();
      });
      reader.on("exit", (c) => rej(new Error(`reader exited with ${c}`)));
    });
    const lock = lockJob(dir, "probed");
    try {
      expect(jobLockHeld(dir)).toBe(true);
    } finally {
      lock.release();
    }
    expect(jobLockHeld(dir)).toBe(false);
    await exited(reader);
  });
});
