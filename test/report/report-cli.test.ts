import { beforeAll, describe, expect, it } from "vitest";
import { emptyUsage, type TrialResult } from "../../src/core/index.js";
import { JobStore } from "../../src/store/index.js";
import { tempDir } from "../runner/helpers.js";
import { runCli as cli } from "../support/cli-process.js";
import { storedJobConfig, storedTask, storedTrial } from "../support/stored-trials.js";

const TABLE = "docs/examples/lhtb-shaped-table.csv";

function trial(job: string, model: string, task: string, reward: number, seed: number): TrialResult {
  return storedTrial({
    job_id: job,
    trial_id: `${task}__terminus__${model.replace(/\W/g, "_")}__a0`,
    task: storedTask(task),
    agent: "terminus",
    model,
    seed,
    reward,
    usage: { ...emptyUsage(), input_tokens: 100, output_tokens: 10, cost_usd: 0.5, turns: 3 },
    stress_digest: `d${seed}`,
  });
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
  await store.createJob(
    storedJobConfig({ job_id: id, agents: ["terminus"], models: MODELS.map((m) => m[0]) }),
  );
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
