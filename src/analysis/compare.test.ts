import { describe, expect, it } from "vitest";
import { compareJobs } from "./compare.js";
import { makeTrial as t } from "./test-trial.js";

describe("compareJobs", () => {
  // Per task, by hand: t1 A = (0.2+0.4)/2 = 0.3, B = 0.5 → +0.2; t2 A = 0.5, B = (0.4+0.6)/2 = 0.5 → 0.
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
      ["t2", 1, 2],
    ]);
    expect(c.rows[0]?.diff).toBeCloseTo(0.2, 12);
    expect(c.rows[1]?.diff).toBeCloseTo(0, 12);
    expect(c.meanDiff.value).toBeCloseTo(0.1, 12);
    expect(c.meanA).toBeCloseTo(0.4, 12);
    expect(c.meanB).toBeCloseTo(0.5, 12);
    expect(c.onlyInA).toEqual(["t3"]);
    expect(c.onlyInB).toEqual(["t4"]);
    expect([c.better, c.worse, c.ties]).toEqual([1, 0, 1]);
  });

  it("gives a paired bootstrap interval inside the range of task differences", () => {
    const c = compareJobs(a, b, { seed: 9, bootstrapSamples: 500 });
    // Resampling two differences {0.2, ~0} gives means in {0, 0.1, 0.2}.
    expect(c.meanDiff.lo as number).toBeGreaterThanOrEqual(-1e-12);
    expect(c.meanDiff.hi as number).toBeLessThanOrEqual(0.2 + 1e-12);
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
});
