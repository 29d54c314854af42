import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { JobStore } from "../../src/store/index.js";
import { CLI } from "../support/cli-process.js";
import { FIXTURES, tempDir } from "./helpers.js";

const ROOT = resolve(import.meta.dirname, "../..");

function cli(args: string[]): ChildProcess {
  // The built CLI (npm test builds first), started directly so that kill -9 hits the runner itself;
  // compiling the CLI with tsx at every start cost seconds a process on a loaded machine.
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.resume();
  return child;
}

function finished(jobDir: string): string[] {
  if (!existsSync(jobDir)) return [];
  return readdirSync(jobDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(jobDir, e.name, "result.json")))
    .map((e) => e.name)
    .sort();
}

async function waitFor(cond: () => boolean, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => child.on("exit", (code) => r(code)));
}

const ATTEMPTS = 6;
const runArgs = (jobsDir: string, job: string): string[] => [
  "run",
  join(FIXTURES, "hello"),
  "--agent",
  "shell",
  "--agent-opt",
  "cmd=sleep 0.7; awk '{s+=$1} END {print s}' /app/numbers.txt > /app/sum.txt",
  "--attempts",
  String(ATTEMPTS),
  "--job",
  job,
  "--jobs-dir",
  jobsDir,
  "--json",
];

async function interruptAndResume(signal: NodeJS.Signals): Promise<void> {
  const jobsDir = tempDir("resume");
  const job = `job-${signal}`;
  const jobDir = join(jobsDir, job);
  const first = cli(runArgs(jobsDir, job));
  const firstExit = exited(first);
  await waitFor(() => finished(jobDir).length >= 2, 60_000);
  first.kill(signal);
  const code = await firstExit;
  if (signal === "SIGTERM") expect(code).toBe(130);
  const before = finished(jobDir);
  expect(before.length).toBeGreaterThanOrEqual(2);
  expect(before.length).toBeLessThan(ATTEMPTS);
  const snapshot = new Map(before.map((t) => [t, readFileSync(join(jobDir, t, "result.json"), "utf8")]));

  const second = cli(["run", "--resume", "--job", job, "--jobs-dir", jobsDir, "--json"]);
  let stdout = "";
  second.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  expect(await exited(second)).toBe(0);
  const doc = JSON.parse(stdout) as { job_id: string; trials: { trial_id: string; reward: number }[] };
  expect(doc.job_id).toBe(job);
  expect(doc.trials).toHaveLength(ATTEMPTS);
  expect(new Set(doc.trials.map((t) => t.trial_id)).size).toBe(ATTEMPTS);
  for (const t of doc.trials) expect(t.reward).toBeCloseTo(0.2, 6);

  // Trials finished before the interruption were not redone: their files are byte-identical.
  for (const [trial, content] of snapshot) {
    expect(readFileSync(join(jobDir, trial, "result.json"), "utf8")).toBe(content);
  }
  expect(finished(jobDir)).toHaveLength(ATTEMPTS);
  const store = await JobStore.open(jobsDir);
  try {
    expect(await store.countTrials(job)).toBe(ATTEMPTS);
  } finally {
    await store.close();
  }
}

// Each case has its own jobs folder, and its trials mostly wait: the two run side by side.
describe.concurrent("interrupted jobs resume without losing or repeating trials", () => {
  // Up to a minute to see two trials finish, then the resumed run: more than the default limit
  // on a loaded machine.
  it("after kill -9", async () => {
    await interruptAndResume("SIGKILL");
  }, 180_000);
  it("after SIGTERM", async () => {
    await interruptAndResume("SIGTERM");
  }, 180_000);
});
