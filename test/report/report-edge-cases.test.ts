import { beforeAll, describe, expect, it } from "vitest";
import { compareJobs, parseExternalResults, summarize } from "../../src/analysis/index.js";
import type { AnalysisTrial } from "../../src/analysis/summary-types.js";
import { weightedReward } from "../../src/grading/reward.js";
import { formatTable } from "../../src/report/format.js";
import { renderComparisonMarkdown } from "../../src/report/render-comparison.js";
import { csvCell } from "../../src/report/render-csv.js";
import { JobStore } from "../../src/store/index.js";
import { tempDir } from "../runner/helpers.js";
import { runCli as cli } from "../support/cli-process.js";
import { storedJobConfig, storedTask, storedTrial } from "../support/stored-trials.js";

function imported(csv: string): AnalysisTrial[] {
  const r = parseExternalResults(csv, "in.csv");
  if (r.kind !== "trials") throw new Error("expected per-trial rows");
  return r.trials;
}

describe("rewards at the thresholds", () => {
  it("stores an exact 0.95 as 0.95, not 0.9499999999999998", () => {
    const raw = (1 * 0.82 + 2 * 0.94 + 3 * 1) / 6;
    expect(raw).toBeLessThan(0.95); // the float noise the rounding removes
    const r = weightedReward([
      { weight: 1, score: 0.82 },
      { weight: 2, score: 0.94 },
      { weight: 3, score: 1 },
    ]);
    expect(r).toBe(0.95);
  });

  it("counts an imported R of 0.95 minus float noise as a pass, not a near-miss", () => {
    const s = summarize(imported(`task,agent,reward\nt1,A,${0.9499999999999998}\nt2,A,0.9\n`));
    expect(s.overall.pass095.k).toBe(1);
    expect(s.overall.nearMiss?.k).toBe(1);
  });

  it("counts an imported grading_error as R = 0 even when the row gives a reward", () => {
    const s = summarize(imported("task,agent,reward,outcome\nt1,A,1,grading_error\nt2,A,0.5,completed\n"));
    expect(s.overall.pass095.k).toBe(0);
    expect(s.overall.pass100.k).toBe(0);
    expect(s.overall.meanReward.value).toBeCloseTo(0.25, 12);
  });
});

describe("pass@k", () => {
  it("never pools two agents' trials of a task as one agent's attempts", () => {
    const s = summarize(imported("task,agent,reward\nt1,A,1\nt1,B,0\n"));
    // One attempt each: pass@1 only, the mean of A's 1 and B's 0.
    expect(s.overall.passAtK).toEqual([{ k: 1, value: 0.5, tasks: 2 }]);
  });
});

describe("compare", () => {
  it("calls the same rewards in another order a tie", () => {
    const a = imported("task,agent,reward\nt1,A,0.1\nt1,A,0.2\nt1,A,0.3\n");
    const b = imported("task,agent,reward\nt1,B,0.3\nt1,B,0.2\nt1,B,0.1\n");
    const c = compareJobs(a, b);
    expect(c.ties).toBe(1);
    expect(c.worse).toBe(0);
    expect(c.rows[0]?.diff).toBe(0);
  });

  it("escapes pipes and line breaks in Markdown cells", () => {
    const a = imported('task,category,agent,reward\nt1,"a|b\nc",A,0.5\n');
    const b = imported('task,category,agent,reward\nt1,"a|b\nc",B,0.5\n');
    const md = renderComparisonMarkdown(compareJobs(a, b));
    const row = md.split("\n").find((l) => l.startsWith("| t1 "));
    expect(row).toBe("| t1 | a\\|b c | 1 | 1 | 0.500 | 0.500 | +0.000 |");
  });
});

describe("plain-text and CSV cells", () => {
  it("keeps a label with a line break on its row", () => {
    const t = formatTable(["task", "n"], [["a\nb", "1"]]);
    expect(t.split("\n")).toEqual(["task  n", "----  -", "a b   1"]);
  });

  it("defuses spreadsheet formulas in text cells but keeps numbers", () => {
    expect(csvCell("=1+2")).toBe("'=1+2");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("+cmd")).toBe("'+cmd");
    expect(csvCell("-x,y")).toBe(`"'-x,y"`);
    expect(csvCell("-0.5")).toBe("-0.5");
    expect(csvCell(-0.5)).toBe("-0.5");
    expect(csvCell("t1")).toBe("t1");
  });
});

describe("a job named twice", () => {
  let jobsDir = "";
  beforeAll(async () => {
    jobsDir = tempDir("report-dup");
    const store = await JobStore.open(jobsDir);
    try {
      await store.createJob(storedJobConfig({ job_id: "j1" }));
      for (const [i, task] of ["t1", "t2", "t3"].entries())
        await store.recordTrial(
          storedTrial({
            job_id: "j1",
            trial_id: `${task}__oracle__a0`,
            task: storedTask(task),
            reward: i / 2,
          }),
        );
    } finally {
      await store.close();
    }
  });

  it("report counts its trials once", async () => {
    const r = await cli(["report", "j1", "j1", "--jobs-dir", jobsDir, "--format", "json"]);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as { overall: { trials: number } };
    expect(s.overall.trials).toBe(3);
  });

  it("dataset calibrate counts them once, named by id and by folder", async () => {
    const r = await cli([
      "dataset",
      "calibrate",
      "j1",
      `${jobsDir}/j1`,
      "--jobs-dir",
      jobsDir,
      "--format",
      "json",
    ]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout) as { trials: number };
    expect(c.trials).toBe(3);
  });
});
