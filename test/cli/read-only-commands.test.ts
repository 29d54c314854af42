import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { JobStore } from "../../src/store/index.js";
import { tempDir } from "../runner/helpers.js";
import { CLI, runCli as cli } from "../support/cli-process.js";
import { storedJobConfig, storedTask, storedTrial } from "../support/stored-trials.js";

/** A jobs dir holding jobs J1 and J2, one passed trial each (recorded by hand, no sandbox). */
async function twoJobs(): Promise<string> {
  const jobsDir = tempDir("read-only");
  const store = await JobStore.open(jobsDir);
  try {
    for (const id of ["J1", "J2"]) {
      await store.createJob(storedJobConfig({ job_id: id }));
      await store.recordTrial(
        storedTrial({ job_id: id, trial_id: "t__oracle__a1", task: storedTask("t"), attempt: 1, reward: 1 }),
      );
    }
  } finally {
    await store.close();
  }
  return jobsDir;
}

describe("a job whose config.json is a folder", () => {
  it.each([
    [["report", "J1"]],
    [["compare", "J1", "J2"]],
    [["export", "sft", "J1"]],
    [["run", "--resume", "--job", "J1"]],
  ])("%j: exit 2 naming the file, not EISDIR", async (args) => {
    const jobsDir = await twoJobs();
    const config = join(jobsDir, "J1", "config.json");
    rmSync(config);
    mkdirSync(config);
    const r = await cli([...args, "--jobs-dir", jobsDir], { cwd: tempDir("read-only-cwd") });
    expect(r.stderr).toBe(`longhaul: ${config}: is a folder, where a file is expected\n`);
    expect(r.code).toBe(2);
  });
});

describe("--out that cannot take a file is refused before any work", () => {
  let jobsDir = "";
  beforeAll(async () => {
    jobsDir = await twoJobs();
  });

  it.each([
    ["report", ["report", "J1"]],
    ["compare", ["compare", "J1", "J2"]],
    ["export sft --force", ["export", "sft", "J1", "--force"]],
  ])("%s --out FOLDER: exit 2 naming it; the folder is left as it was", async (_, args) => {
    const cwd = tempDir("read-only-out");
    mkdirSync(join(cwd, "somefolder"));
    writeFileSync(join(cwd, "somefolder", "keep.txt"), "kept");
    const r = await cli([...args, "--jobs-dir", jobsDir, "--out", "somefolder"], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^longhaul: (\/.*\/)?somefolder: cannot write \(it is a folder\)\n$/);
    expect(readdirSync(cwd)).toEqual(["somefolder"]);
    expect(readFileSync(join(cwd, "somefolder", "keep.txt"), "utf8")).toBe("kept");
  });

  it.each([
    ["report", ["report", "J1"]],
    ["compare", ["compare", "J1", "J2"]],
    ["export sft", ["export", "sft", "J1"]],
  ])("%s --out MISSING/x: exit 2 naming the path, nothing made", async (_, args) => {
    const cwd = tempDir("read-only-out");
    const r = await cli([...args, "--jobs-dir", jobsDir, "--out", "nosuchdir/x.txt"], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^longhaul: (\/.*\/)?nosuchdir\/x\.txt: cannot write \(no such folder \/.*\/nosuchdir\)\n$/,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });
});

const execFileP = promisify(execFile);

/** The CLI with a time limit: a command that never returns is a failure here, not a hung suite. */
async function cliWithin(args: string[], ms: number): Promise<{ code: number | string; stderr: string }> {
  try {
    const r = await execFileP(process.execPath, [CLI, ...args], { timeout: ms, killSignal: "SIGKILL" });
    return { code: 0, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number | string | null; signal: string | null; stderr: string };
    return { code: err.code ?? err.signal ?? "?", stderr: err.stderr };
  }
}

describe("commands that only read a jobs dir never create it", () => {
  it.each([[["report"]], [["report", "J1"]], [["compare", "J1", "J2"]], [["export", "sft", "J1"]]])(
    "%j on a missing jobs dir: exit 2, the folder is not made",
    async (args) => {
      const parent = tempDir("read-only-missing");
      const missing = join(parent, "nonexist", "x");
      const r = await cli([...args, "--jobs-dir", missing]);
      expect(r.stderr).toMatch(/^longhaul: no jobs dir .*nonexist\/x[;\n]/);
      expect(r.code).toBe(2);
      expect(existsSync(join(parent, "nonexist"))).toBe(false);
    },
  );

  it.each([[["report"]], [["report", "J1"]], [["export", "sft", "J1"]]])(
    "%j on an empty jobs dir: exit 2, nothing made in it",
    async (args) => {
      const empty = tempDir("read-only-empty");
      const r = await cli([...args, "--jobs-dir", empty]);
      expect(r.stderr).toBe(`longhaul: no jobs in ${empty}; run one with: longhaul run --agent oracle\n`);
      expect(r.code).toBe(2);
      expect(readdirSync(empty)).toEqual([]);
    },
  );

  it("a jobs dir under /proc: exit 2 at once, for report and for run", async () => {
    const [report, run] = await Promise.all([
      cliWithin(["report", "--jobs-dir", "/proc/nonexist/x"], 20_000),
      cliWithin(["run", "--agent", "nop", "--jobs-dir", "/proc/nonexist/x"], 20_000),
    ]);
    expect(report).toEqual({
      code: 2,
      stderr: "longhaul: no jobs dir /proc/nonexist/x; pass --jobs-dir DIR, or run a job first\n",
    });
    expect(run).toEqual({
      code: 2,
      stderr:
        "longhaul: cannot create the jobs dir /proc/nonexist/x: /proc/nonexist: no such file or folder\n",
    });
  });
});
