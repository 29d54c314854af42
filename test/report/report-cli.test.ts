import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { emptyUsage, type TrialResult } from "../../src/core/index.js";
import { JobStore } from "../../src/store/index.js";
import { tempDir } from "../runner/helpers.js";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const TABLE = "docs/examples/lhtb-shaped-table.csv";

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { cwd: ROOT });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

function trial(job: string, model: string, task: string, reward: number, seed: number): TrialResult {
  return {
    schema_version: 1,
    job_id: job,
    trial_id: `${task}__terminus__${model.replace(/\W/g, "_")}__a0`,
    task: { name: task, checksum: "c".repeat(64), category: "data", difficulty: null, path: "/nonexistent" },
    agent: "terminus",
    model,
    attempt: 0,
    seed,
    timing: {
      started_at: "2026-01-01T00:00:00.000Z",
      finished_at: "2026-01-01T00:01:00.000Z",
      setup_sec: 1,
      agent_sec: 50,
      verifier_sec: 9,
      verifier_command_sec: 8,
      total_sec: 60,
    },
    outcome: "completed",
    self_terminated: false,
    reward,
    subtasks: [],
    grading_errors: [],
    usage: { ...emptyUsage(), input_tokens: 100, output_tokens: 10, cost_usd: 0.5, turns: 3 },
    infra_retries: 0,
    error: null,
    stress_digest: `d${seed}`,
    budget_left_sec: null,
    continuation: null,
  };
}

// Four local models whose mean R follows the example table's order for Models A, B, D, M.
const MODELS: [string, number][] = [
  ["x:model-a", 0.9],
  ["x:model-b", 0.6],
  ["x:model-d", 0.4],
  ["x:model-m", 0.1],
];
const TASKS = ["t1", "t2", "t3"];

async function job(store: JobStore, id: string, seedOf: (task: string) => number): Promise<void> {
  await store.createJob({
    schema_version: 1,
    job_id: id,
    created_at: "2026-01-01T00:00:00.000Z",
    tasks: [],
    agents: ["terminus"],
    models: MODELS.map((m) => m[0]),
    attempts: 1,
    concurrency: 1,
    timeout_multiplier: 1,
    retries: 0,
    seed: 1,
    sandbox: "bwrap",
    agent_options: {},
  });
  for (const [model, r] of MODELS)
    for (const [i, task] of TASKS.entries())
      await store.recordTrial(trial(id, model, task, r - i * 0.05, seedOf(task)));
}

describe("report and compare on the command line", () => {
  let jobsDir = "";
  beforeAll(async () => {
    jobsDir = tempDir("report-cli");
    const store = await JobStore.open(jobsDir);
    try {
      await job(store, "run-1", (t) => 100 + TASKS.indexOf(t));
      await job(store, "run-2", (t) => 100 + TASKS.indexOf(t));
      // Same job seed rule broken on t2: a different hidden case.
      await job(store, "run-3", (t) => (t === "t2" ? 999 : 100 + TASKS.indexOf(t)));
    } finally {
      await store.close();
    }
  });

  it("report JOB --import TABLE measures rank agreement with the published table", async () => {
    const r = await cli(["report", "run-1", "--jobs-dir", jobsDir, "--import", TABLE, "--seed", "11"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Rank agreement with ${TABLE}`);
    // Four matched models in the same mean-R order on both sides.
    expect(r.stdout).toMatch(/mean R\s+4\s+1\.00/);
    expect(r.stdout).toContain("seed 11");
  });

  it("report --import TABLE alone recovers counts and flags the unreproducible row", async () => {
    const r = await cli(["report", "--import", TABLE, "--format", "md"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("28.3% = 13/46");
    expect(r.stdout).toContain("NOT REPRODUCIBLE");
    expect(r.stdout).toContain("Model K");
  });

  it("compare accepts jobs graded on the same hidden cases", async () => {
    const r = await cli(["compare", "run-1", "run-2", "--jobs-dir", jobsDir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("3 paired tasks");
  });

  it("compare refuses different hidden cases unless told, then warns", async () => {
    const refused = await cli(["compare", "run-1", "run-3", "--jobs-dir", jobsDir]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("t2 (attempt 0: seed 101 vs 999)");
    expect(refused.stderr).toContain("--allow-different-cases");
    const allowed = await cli([
      "compare",
      "run-1",
      "run-3",
      "--jobs-dir",
      jobsDir,
      "--allow-different-cases",
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toMatch(
      /^WARNING: run-1 and run-3 graded 1 \(task, attempt\) pair\(s\) on different hidden cases/,
    );
    expect(allowed.stdout).toContain("3 paired tasks");
  });
});
