import { describe, expect, it } from "vitest";
import { compareJobs } from "./compare.js";
import { makeTrial as t } from "./test-trial.js";

describe("compareJobs", () => {
  // Per task, by hand: t1 A = (0.2+0.4)/2 = 0.3, B = 0.5 → +0.2; t2 A = (0.5 + 0 for the
  // grading_error)/2 = 0.25, B = (0.4+0.6)/2 = 0.5 → +0.25. The infra_error in B is left out.
  const a = [
    t({ task: "t1", reward: 0.2 }),
    t({ task: "t1", reward: 0.4 }),
    t({ task: "t2", reward: 0.5 }),
    t({ task: "t3", reward: 0.9 }),
    t({ task: "t2", reward: null, outcome: "grading_error" }),
  ];
  const b = [
    t({ task: "t1", reward: 0.5 }),
    t({ task: "t2", reward: 0.4 }),
    t({ task: "t2", reward: 0.6 }),
    t({ task: "t4", reward: 0.1 }),
    t({ task: "t3", reward: 1, outcome: "infra_error" }),
  ];

  it("pairs tasks and reports per-task differences", () => {
    const c = compareJobs(a, b, { seed: 9, bootstrapSamples: 500 });
    expect(c.rows.map((r) => [r.task, r.nA, r.nB])).toEqual([
      ["t1", 2, 1],
      ["t2", 2, 2],
    ]);
    expect(c.rows[0]?.diff).toBeCloseTo(0.2, 12);
    expect(c.rows[1]?.diff).toBeCloseTo(0.25, 12);
    expect(c.meanDiff.value).toBeCloseTo(0.225, 12);
    expect(c.meanA).toBeCloseTo(0.275, 12);
    expect(c.meanB).toBeCloseTo(0.5, 12);
    expect(c.onlyInA).toEqual(["t3"]);
    expect(c.onlyInB).toEqual(["t4"]);
    expect([c.better, c.worse, c.ties]).toEqual([2, 0, 0]);
  });

  it("gives a paired bootstrap interval inside the range of task differences", () => {
    const c = compareJobs(a, b, { seed: 9, bootstrapSamples: 500 });
    // Resampling two differences {0.2, 0.25} gives means in {0.2, 0.225, 0.25}.
    expect(c.meanDiff.lo as number).toBeGreaterThanOrEqual(0.2 - 1e-12);
    expect(c.meanDiff.hi as number).toBeLessThanOrEqual(0.25 + 1e-12);
    expect(c.meanDiff.lo as number).toBeLessThan(c.meanDiff.hi as number);
    expect(compareJobs(a, b, { seed: 9, bootstrapSamples: 500 })).toEqual(c);
    expect(c.seed).toBe(9);
  });

  it("detects a consistent shift with an interval excluding zero", () => {
    const base = Array.from({ length: 30 }, (_, i) => t({ task: `t${i}`, reward: (i % 10) / 20 }));
    const better = base.map((x) => ({
      ...x,
      reward: (x.reward as number) + 0.1 + ((x.task.name.length % 3) - 1) / 100,
    }));
    const c = compareJobs(base, better, { seed: 1 });
    expect(c.meanDiff.lo as number).toBeGreaterThan(0);
    expect(c.better).toBe(30);
  });

  it("finds (task, attempt) pairs graded on different hidden cases", () => {
    const ja = [
      t({ task: "t1", reward: 0.5, seed: 11, digest: "x" }),
      t({ task: "t2", reward: 0.5, seed: 12, digest: "y" }),
      t({ task: "t3", reward: 0.5, seed: 13, digest: "z" }),
      t({ task: "t4", reward: 0.5, seed: 14, digest: null }),
    ];
    const jb = [
      t({ task: "t1", reward: 0.6, seed: 11, digest: "x" }),
      t({ task: "t2", reward: 0.6, seed: 99, digest: "y" }),
      t({ task: "t3", reward: 0.6, seed: 13, digest: "other" }),
      // No digest on one side: the seed decides.
      t({ task: "t4", reward: 0.6, seed: 14, digest: "w" }),
    ];
    const c = compareJobs(ja, jb, { bootstrapSamples: 0 });
    expect(c.hiddenCases.map((m) => [m.task, m.reason])).toEqual([
      ["t2", "seed"],
      ["t3", "digest"],
    ]);
    expect(compareJobs(ja, ja, { bootstrapSamples: 0 }).hiddenCases).toEqual([]);
  });

  it("measures how the two jobs rank their agent / model groups", () => {
    const mk = (model: string, r: number) => t({ model, reward: r });
    const ja = [mk("p", 0.9), mk("q", 0.5), mk("r", 0.1)];
    const jb = [mk("p", 0.8), mk("q", 0.6), mk("r", 0.2), mk("s", 0.3)];
    const c = compareJobs(ja, jb, { bootstrapSamples: 0 });
    const meanR = c.ranks.find((r) => r.metric === "mean R");
    expect(meanR?.agreement.spearman.value).toBeCloseTo(1, 12);
    expect(meanR?.agreement.kendall.value).toBeCloseTo(1, 12);
    expect(meanR?.onlyB).toEqual(["h / s"]);
  });
});
