import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registerReportCommand } from "../../src/cli/commands/report.js";
import { registerRunCommand } from "../../src/cli/commands/run.js";
import { JobStore } from "../../src/store/index.js";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { runCliInProcess } from "../support/cli-in-process.js";
import { type CliResult, runCli as cli } from "../support/cli-process.js";

// Most cases run `longhaul run` and `longhaul report` in this process: the same commands, checks
// and exit codes, without a second of CPU for each process start. One case of each kind (a task
// refused at load, a bad --job for a new and a resumed job, a damaged index, a damaged
// config.json) goes through the built CLI, for the real exit code and stderr.
const inProcess = (args: string[]): Promise<CliResult> =>
  runCliInProcess(args, (program) => {
    registerRunCommand(program);
    registerReportCommand(program);
  });

/** A copy of the trivial fixture task whose task.toml has `extra` appended. */
function taskWith(parent: string, name: string, extra: string): string {
  const dir = join(parent, name);
  cpSync(join(FIXTURES, "trivial"), dir, { recursive: true });
  const toml = readFileSync(join(dir, "task.toml"), "utf8").replace(/\[environment\][^[]*$/, "");
  writeFileSync(join(dir, "task.toml"), `${toml}${extra}`);
  return dir;
}

const jobFolders = (jobs: string): string[] => readdirSync(jobs).filter((f) => !f.startsWith("longhaul.db"));

describe("task.toml fields that used to fail mid-job are refused at load", () => {
  it.each([
    ["memory_mb = 100.5", ":12: [environment] memory_mb must be a whole number of MiB, got 100.5"],
    ['workdir = "/"', ':12: [environment] workdir must not be / (the sandbox root), got "/"'],
    ['workdir = "/tmp/app"', ":12: [environment] workdir must not be inside /tmp (reserved in the sandbox)"],
    ['workdir = "/app/../etc"', ":12: [environment] workdir must not contain . or .. components"],
    ["cpus = 5000", ":12: [environment] cpus must be at most 1024 CPUs, got 5000"],
  ])("%s", async (line, expected) => {
    const parent = tempDir("cli-in");
    const dir = taskWith(parent, "t", `[environment]\n${line}\n`);
    const jobs = tempDir("cli-in");
    const r = await inProcess(["run", dir, "--agent", "oracle", "--jobs-dir", jobs]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(dir, "task.toml")}${expected}`);
    expect(jobFolders(jobs)).toEqual([]);
  });

  it("an agent timeout past what a timer can hold", async () => {
    const dir = taskWith(tempDir("cli-in"), "t", "");
    writeFileSync(join(dir, "task.toml"), "[agent]\ntimeout_sec = 1e10\n");
    const r = await inProcess(["run", dir, "--agent", "oracle", "--jobs-dir", tempDir("cli-in")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("task.toml:2: [agent] timeout_sec must be at most 1000000 seconds");
  });

  it("an environment that is a file (the built CLI: exit 2, stderr one line)", async () => {
    const dir = taskWith(tempDir("cli-in"), "t", "");
    rmSync(join(dir, "environment"), { recursive: true });
    writeFileSync(join(dir, "environment"), "not a folder\n");
    const r = await cli(["run", dir, "--agent", "oracle", "--jobs-dir", tempDir("cli-in")]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `longhaul: ${join(dir, "environment")}: must be a folder (copied into the workdir), not a file`,
    );
  });
});

describe("names that would clash or escape", () => {
  it("refuses two tasks whose trial ids coincide, naming both folders, before a job exists", async () => {
    const parent = tempDir("cli-in");
    const a = taskWith(parent, "x y", "");
    const b = taskWith(parent, "x_y", "");
    const jobs = tempDir("cli-in");
    const r = await inProcess(["run", parent, "--agent", "oracle", "--jobs-dir", jobs, "--job", "clash"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`tasks "x y" (${a}) and "x_y" (${b}) map to the same trial folder`);
    expect(jobFolders(jobs)).toEqual([]);
  });

  it.each([
    ["a/b", "the built CLI"],
    ["../x", "in process"],
    [".hidden", "in process"],
    ["x".repeat(129), "in process"],
  ])("refuses --job %j (%s)", async (name, how) => {
    const run = how === "the built CLI" ? cli : inProcess;
    const jobs = tempDir("cli-in");
    const r = await run([
      "run",
      join(FIXTURES, "trivial"),
      "--agent",
      "oracle",
      "--jobs-dir",
      jobs,
      "--job",
      name,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("use 1 to 128 letters, digits, . _ or -, not starting with .");
    expect(jobFolders(jobs)).toEqual([]);
    const resumed = await run(["run", "--resume", "--jobs-dir", jobs, "--job", name]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain("is not allowed");
  });
});

describe("damaged job stores are user errors naming the file", () => {
  /** A finished one-trial job to damage. */
  async function finishedJob(): Promise<{ jobs: string; job: string }> {
    const jobs = tempDir("cli-store");
    const r = await inProcess([
      "run",
      join(FIXTURES, "trivial"),
      "--agent",
      "oracle",
      "--jobs-dir",
      jobs,
      "--job",
      "j1",
    ]);
    expect(r.code).toBe(0);
    return { jobs, job: "j1" };
  }

  it("report on an empty index, a non-SQLite index, and resume of a truncated config.json", async () => {
    const { jobs, job } = await finishedJob();
    const db = join(jobs, "longhaul.db");
    for (const f of readdirSync(jobs)) if (f.startsWith("longhaul.db")) rmSync(join(jobs, f));
    writeFileSync(db, "");

    // The built CLI for this one and the truncated config.json below; the rest in process.
    const named = await cli(["report", job, "--jobs-dir", jobs]);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(
      `longhaul.db has no trials of job ${job}, but its folder holds 1 finished trial(s)`,
    );
    const newest = await inProcess(["report", "--jobs-dir", jobs]);
    expect(newest.code).toBe(2);
    expect(newest.stderr).toContain("longhaul.db lists no jobs, but 1 job folder(s) exist (j1)");

    // Resume re-indexes from the folder; nothing stored was lost.
    expect((await inProcess(["run", "--resume", "--job", job, "--jobs-dir", jobs])).code).toBe(0);
    const after = await inProcess(["report", job, "--jobs-dir", jobs, "--json"]);
    expect(after.code).toBe(0);

    for (const f of readdirSync(jobs)) if (f.startsWith("longhaul.db")) rmSync(join(jobs, f));
    writeFileSync(db, "this is not a database, just text that is long enough to have a header\n".repeat(20));
    const garbage = await inProcess(["report", job, "--jobs-dir", jobs]);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain(`${db}: not a usable SQLite database`);
    rmSync(db);

    const config = join(jobs, job, "config.json");
    const text = readFileSync(config, "utf8");
    writeFileSync(config, text.slice(0, 40));
    const truncated = await cli(["run", "--resume", "--job", job, "--jobs-dir", jobs]);
    expect(truncated.code).toBe(2);
    // The error is where the text stops: the line of its 40th character.
    const endLine = text.slice(0, 40).split("\n").length;
    expect(truncated.stderr).toContain(`${config}:${endLine}: column `);
    expect(truncated.stderr).toContain("the file may be truncated");
    writeFileSync(config, text.replace('"attempts": 1', '"attempts": 1.5'));
    const badField = await inProcess(["run", "--resume", "--job", job, "--jobs-dir", jobs]);
    expect(badField.code).toBe(2);
    expect(badField.stderr).toContain(`${config}: field attempts:`);
    expect(existsSync(join(jobs, job))).toBe(true);
  }, 180_000);

  it("report of a job that has not finished a trial", async () => {
    const jobs = tempDir("cli-store");
    const store = await JobStore.open(jobs);
    try {
      mkdirSync(join(jobs, "empty"));
    } finally {
      await store.close();
    }
    const { jobConfig } = await import("../runner/helpers.js");
    writeFileSync(join(jobs, "empty", "config.json"), JSON.stringify(jobConfig([], { job_id: "empty" })));
    const r = await inProcess(["report", "empty", "--jobs-dir", jobs]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("job empty has no finished trials yet");
  });
});
