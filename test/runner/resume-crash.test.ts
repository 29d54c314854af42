import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/index.js";
import { planTrials } from "../../src/runner/trial-plan.js";
import { parseJobConfig } from "../../src/store/index.js";
import { FIXTURES, tempDir } from "./helpers.js";

const ROOT = resolve(import.meta.dirname, "../..");
// The built CLI, started directly so that SIGKILL hits the runner itself (npm test builds first).
const MAIN = join(ROOT, "dist/cli/main.js");
// 8 kill points from a fixed seed keep the suite in budget; `LONGHAUL_CRASH_KILLS=20 npx vitest run
// test/runner/resume-crash.test.ts` is the longer sweep (docs/testing.md).
const KILLS = Number(process.env.LONGHAUL_CRASH_KILLS ?? 8);
// The first kills come before any shell trial can finish (they sleep longer than this), so at
// least this many land however fast or slow the machine is; later ones let the job progress.
const EARLY_KILLS = 5;
const EARLY_MS = 1200;
const SEED = 20261130;
const JOB = "crash";

interface Runner {
  child: ChildProcess;
  stderr: () => string;
  /** Resolves once the runner has planned the job ("job: N trials" on stderr). */
  started: Promise<void>;
}

function start(args: string[]): Runner {
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: "true" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let text = "";
  const started = new Promise<void>((r) => {
    child.stderr?.on("data", (d: Buffer) => {
      text += d.toString();
      if (text.includes("job: ")) r();
    });
  });
  return { child, stderr: () => text, started };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) r(child.exitCode);
    else child.on("exit", (code) => r(code));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Trial folders holding a result.json, with their bytes. */
function resultFiles(jobDir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(jobDir)) return out;
  for (const e of readdirSync(jobDir, { withFileTypes: true })) {
    const p = join(jobDir, e.name, "result.json");
    if (e.isDirectory() && existsSync(p)) out.set(e.name, readFileSync(p, "utf8"));
  }
  return out;
}

/** Processes whose command line mentions a state folder of runner `pid` (bwrap binds it). */
function processesOf(pid: number): string[] {
  try {
    return execFileSync("pgrep", ["-f", `longhaul-${pid}-`], { encoding: "utf8" })
      .trim()
      .split("\n");
  } catch {
    return []; // pgrep exits 1 when nothing matches.
  }
}

const stateDirsOf = (pid: number): string[] =>
  readdirSync(tmpdir()).filter((n) => n.startsWith(`longhaul-${pid}-`));

describe("a job killed at random points and resumed", () => {
  it("records every planned trial exactly once, with a sound index and nothing left behind", async () => {
    const jobsDir = tempDir("crash");
    const jobDir = join(jobsDir, JOB);
    const fresh = [
      "run",
      join(FIXTURES, "trivial"),
      join(FIXTURES, "hello"),
      "--agent",
      "oracle",
      "--agent",
      "shell",
      "--agent-opt",
      "cmd=sleep 1.5; awk '{s+=$1} END {print s}' /app/numbers.txt > /app/sum.txt",
      "--attempts",
      "2",
      "-n",
      "2",
      "--seed",
      "7",
      "--job",
      JOB,
      "--jobs-dir",
      jobsDir,
    ];
    const resume = ["run", "--resume", "--job", JOB, "--jobs-dir", jobsDir];
    const rng = new Rng(SEED);
    const firstSeen = new Map<string, string>();
    const pids: number[] = [];
    let killsLanded = 0;
    let midTrial = 0;

    for (let i = 0; i < KILLS; i++) {
      // The first run creates the job; until its config.json exists, a kill leaves nothing to resume.
      const runner = start(existsSync(join(jobDir, "config.json")) ? resume : fresh);
      const { child } = runner;
      if (child.pid !== undefined) pids.push(child.pid);
      const done = exited(child);
      // Kill points are timed from the moment the runner has planned the job (start-up is slow on
      // a busy machine and would swallow them) and spread over sandbox setup, agent, verifier and
      // recording.
      const delay = Math.floor(rng.next() * (i < EARLY_KILLS ? EARLY_MS : 3000));
      const up = await Promise.race([done.then(() => false), runner.started.then(() => true)]);
      if (!up) throw new Error(`runner exited before starting the job: ${runner.stderr()}`);
      const finishedFirst = await Promise.race([done.then(() => true), sleep(delay).then(() => false)]);
      if (finishedFirst) break; // The job completed before this kill point.
      if (child.pid !== undefined && stateDirsOf(child.pid).length > 0) midTrial += 1;
      child.kill("SIGKILL");
      await done;
      killsLanded += 1;
      // bwrap dies with its parent: nothing of the killed runner's sandboxes keeps running.
      if (child.pid !== undefined) {
        const pid = child.pid;
        // Polled until gone: under heavy load the kernel takes seconds to reap a sandbox tree, and
        // a process that survives its runner is still there after 10 s.
        for (let t = 0; t < 200 && processesOf(pid).length > 0; t++) await sleep(50);
        expect(processesOf(pid)).toEqual([]);
      }
      for (const [trial, bytes] of resultFiles(jobDir))
        if (!firstSeen.has(trial)) firstSeen.set(trial, bytes);
      if (existsSync(join(jobsDir, "longhaul.db"))) {
        const db = new BetterSqlite3(join(jobsDir, "longhaul.db"), { readonly: true });
        try {
          expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        } finally {
          db.close();
        }
      }
    }

    const last = start(resume);
    if (last.child.pid !== undefined) pids.push(last.child.pid);
    const code = await exited(last.child);
    expect(code, last.stderr()).toBe(0);

    expect(killsLanded).toBeGreaterThanOrEqual(EARLY_KILLS);
    expect(midTrial).toBeGreaterThanOrEqual(1);

    const config = parseJobConfig(
      join(jobDir, "config.json"),
      readFileSync(join(jobDir, "config.json"), "utf8"),
    );
    const planned = planTrials(config)
      .map((t) => t.trialId)
      .sort();
    expect(planned).toHaveLength(8);
    const files = resultFiles(jobDir);
    expect([...files.keys()].sort()).toEqual(planned);
    // Only finished trials and the job's own files remain: unfinished trial folders were removed.
    expect(
      readdirSync(jobDir)
        .filter((n) => !planned.includes(n))
        .sort(),
    ).toEqual(["config.json", "result.json", "run.lock"]);
    // A trial recorded before a kill was never run again.
    for (const [trial, bytes] of firstSeen) expect(files.get(trial)).toBe(bytes);

    const db = new BetterSqlite3(join(jobsDir, "longhaul.db"), { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      const rows = db
        .prepare("SELECT trial_id, result_json FROM trials WHERE job_id = ? ORDER BY trial_id")
        .all(JOB) as { trial_id: string; result_json: string }[];
      expect(rows.map((r) => r.trial_id)).toEqual(planned);
      for (const r of rows)
        expect(JSON.parse(r.result_json)).toEqual(JSON.parse(files.get(r.trial_id) ?? "null"));
      const job = db.prepare("SELECT status FROM jobs WHERE id = ?").get(JOB) as { status: string };
      expect(job.status).toBe("finished");
    } finally {
      db.close();
    }

    for (const pid of pids) {
      expect(processesOf(pid)).toEqual([]);
      expect(stateDirsOf(pid)).toEqual([]);
    }
  }, 420_000);
});
