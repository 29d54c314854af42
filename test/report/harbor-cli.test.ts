import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { emptyUsage, type TrialResult } from "../../src/core/index.js";
import { JobStore } from "../../src/store/index.js";
import { jobConfig, tempDir } from "../runner/helpers.js";
import { runCli as cli, ROOT } from "../support/cli-process.js";
import { storedTask, storedTrial } from "../support/stored-trials.js";

const HARBOR_JOB = "test/fixtures/harbor-jobs/tb-sample";

function trial(task: string, attempt: number, reward: number): TrialResult {
  return storedTrial({
    job_id: "lh",
    trial_id: `${task}__terminus__x_m__a${attempt}`,
    task: storedTask(task, "sys", `/tasks/${task}`),
    agent: "terminus",
    model: "x:m",
    attempt,
    seed: 3,
    self_terminated: true,
    reward,
    usage: { ...emptyUsage(), input_tokens: 100, output_tokens: 10, cost_usd: 0.5, cost_known: true },
  });
}

describe("report and compare on a Harbor job folder", () => {
  let jobsDir: string;

  beforeAll(async () => {
    jobsDir = tempDir("harbor");
    const store = await JobStore.open(jobsDir);
    try {
      await store.createJob(
        jobConfig([], {
          job_id: "lh",
          created_at: "2026-01-01T00:00:00.000Z",
          agents: ["terminus"],
          models: ["x:m"],
          attempts: 2,
          seed: 1,
        }),
      );
      // Same task names as the Harbor fixture: hello-world 1, 1; fix-permissions 0.5, 0.5.
      for (const t of [
        trial("hello-world", 0, 1),
        trial("hello-world", 1, 1),
        trial("fix-permissions", 0, 0.5),
        trial("fix-permissions", 1, 0.5),
      ])
        await store.recordTrial(t);
    } finally {
      await store.close();
    }
  });

  it("report --import FOLDER prints Harbor's Pass@1 and mean R", async () => {
    const r = await cli(["report", "--import", HARBOR_JOB]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const row = r.stdout.split("\n").find((l) => l.startsWith("terminus-2 / anthropic:claude-sonnet-4-5"));
    expect(row).toMatch(/^\S+ \/ \S+\s+4\s+1\/4 \(25\.0%\)/);
    expect(row).toContain("0.450");
    const json = await cli(["report", "--import", HARBOR_JOB, "--json"]);
    const s = JSON.parse(json.stdout) as {
      overall: { pass095: { k: number; n: number }; meanReward: { value: number } };
    };
    expect(s.overall.pass095).toMatchObject({ k: 1, n: 4 });
    expect(s.overall.meanReward.value).toBeCloseTo(0.45, 10);
  });

  it("report --import warns about skipped trial files, says how many, and reports the rest", async () => {
    const dir = join(tempDir("harbor"), "harbor");
    cpSync(join(ROOT, HARBOR_JOB), dir, { recursive: true });
    mkdirSync(join(dir, "broken__1"));
    writeFileSync(join(dir, "broken__1", "result.json"), JSON.stringify({ task_name: "x" }));
    const r = await cli(["report", "--import", dir, "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`skipped 1 of 5 Harbor trial result(s) in ${dir}`);
    expect(r.stderr).toContain(`${join(dir, "broken__1", "result.json")}: field trial_name:`);
    expect((JSON.parse(r.stdout) as { overall: { trials: number } }).overall.trials).toBe(4);
  });

  it("compare JOB --import FOLDER pairs the tasks of a longhaul job and a Harbor job", async () => {
    const r = await cli(["compare", "lh", "--import", HARBOR_JOB, "--jobs-dir", jobsDir, "--format", "json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout) as {
      rows: { task: string; meanA: number; meanB: number; diff: number }[];
      onlyInA: string[];
      onlyInB: string[];
      meanDiff: { value: number; n: number };
    };
    expect(c.onlyInA).toEqual([]);
    expect(c.onlyInB).toEqual([]);
    expect(c.rows.map((x) => [x.task, x.meanA, x.meanB])).toEqual([
      ["fix-permissions", 0.5, 0],
      ["hello-world", 1, 0.9],
    ]);
    expect(c.meanDiff.n).toBe(2);
    expect(c.meanDiff.value).toBeCloseTo(-0.3, 10);
  });

  it("compare takes exactly two sides", async () => {
    const r = await cli(["compare", "--import", HARBOR_JOB, "--jobs-dir", jobsDir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/compare takes exactly two sides .* got 1/);
  });
});
