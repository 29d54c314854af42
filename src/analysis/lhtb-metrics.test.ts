import { describe, expect, it } from "vitest";
import { costUnknown, gradingReason } from "./group-metrics.js";
import { summarize } from "./summarize.js";
import type { GroupMetrics } from "./summary-types.js";
import { makeTrial as t } from "./test-trial.js";

function group(groups: readonly GroupMetrics[], label: string): GroupMetrics {
  const g = groups.find((x) => x.label === label);
  if (g === undefined) throw new Error(`no group ${label}`);
  return g;
}

describe("false finish as LHTB defines it", () => {
  // Self-terminated at R = 0.92 (18 min left), 0.75 (10 min), 0.74, 0.3 and 0.96; one timeout at 0.9.
  const trials = [
    t({ reward: 0.92, self: true, budgetLeft: 1080 }),
    t({ reward: 0.75, self: true, budgetLeft: 600 }),
    t({ reward: 0.74, self: true, budgetLeft: 1500 }),
    t({ reward: 0.3, self: true, budgetLeft: 3000 }),
    t({ reward: 0.96, self: true, budgetLeft: 100 }),
    t({ reward: 0.9, outcome: "agent_timeout" }),
  ];
  const g = summarize(trials, { bootstrapSamples: 0 }).groups[0] as GroupMetrics;

  it("counts 0.75 ≤ R < 0.95 among self-terminated trials, the edges included and excluded", () => {
    expect([g.falseFinish?.k, g.falseFinish?.n]).toEqual([2, 5]);
    expect([g.stoppedEarly?.k, g.stoppedEarly?.n]).toEqual([4, 5]);
  });

  it("reports the budget left over false finishes only", () => {
    expect(g.falseFinishBudget).toEqual({ n: 2, meanSec: 840, medianSec: 840 });
  });

  it("skips false finishes that recorded no budget", () => {
    const s = summarize([
      t({ reward: 0.8, self: true, budgetLeft: null }),
      t({ reward: 0.85, self: true, budgetLeft: 60 }),
    ]);
    expect(s.groups[0]?.falseFinishBudget).toEqual({ n: 1, meanSec: 60, medianSec: 60 });
    expect(s.groups[0]?.falseFinish?.k).toBe(2);
  });
});

describe("grading errors count", () => {
  const trials = [
    t({ model: "A", task: "t1", reward: 1 }),
    t({
      model: "A",
      task: "t2",
      reward: null,
      outcome: "grading_error",
      gradingErrors: ["reward-details.json: weights sum to 0"],
    }),
    t({ model: "A", task: "t3", reward: null, outcome: "grading_error", errorMessage: "verifier timed out" }),
    t({ model: "A", task: "t4", reward: null, outcome: "infra_error" }),
  ];
  const a = group(summarize(trials, { bootstrapSamples: 0 }).groups, "h / A");

  it("in the Pass@1 denominator and as R = 0 in mean R; infra_error stays out", () => {
    expect([a.pass095.k, a.pass095.n]).toEqual([1, 3]);
    expect(a.meanReward.value).toBeCloseTo(1 / 3, 12);
    expect(a.outcomes.infra_error).toBe(1);
  });

  it("with the count and the first reason", () => {
    expect(a.gradingErrors).toEqual({
      count: 2,
      firstReason: "reward-details.json: weights sum to 0",
      firstTask: "t2",
    });
    expect(gradingReason(trials[2] as (typeof trials)[number])).toBe("verifier timed out");
  });
});

describe("unpriced models", () => {
  it("knows an unknown cost from the flag, or from tokens spent at $0 by a named model", () => {
    expect(costUnknown(t({ reward: 1, costKnown: false, cost: 0, tokens: 10 }))).toBe(true);
    expect(costUnknown(t({ reward: 1, costKnown: true, cost: 0, tokens: 10 }))).toBe(false);
    expect(costUnknown(t({ reward: 1, cost: 0, tokens: 500 }))).toBe(true);
    expect(costUnknown(t({ reward: 1, model: null, cost: 0, tokens: 500 }))).toBe(false);
    expect(costUnknown(t({ reward: 1, cost: 0, tokens: 0 }))).toBe(false);
  });

  it("shows no cost for them and keeps them off the frontier", () => {
    const s = summarize(
      [
        t({ model: "priced", reward: 0.5, cost: 2, tokens: 100 }),
        t({ model: "free", reward: 1, cost: 0, tokens: 100, costKnown: false }),
      ],
      { bootstrapSamples: 0 },
    );
    const free = group(s.groups, "h / free");
    expect(free.usage).toMatchObject({
      meanCost: null,
      totalCost: null,
      costPerResolved: null,
      costUnknown: 1,
    });
    // "free" passes more and would cost $0: without the flag it would dominate the frontier.
    expect(s.frontier).toEqual(["h / priced"]);
    expect(s.overall.usage.meanCost).toBeNull();
  });
});

describe("correlation at both thresholds", () => {
  it("ranks Pass@1 at R ≥ 0.95 and at R = 1 against mean R separately", () => {
    // Mean R: A 0.94 > B 0.65 > C 0.43. Pass@0.95: A 2/3, B = C = 1/3 (tied ranks) → ρ = √3/2.
    // Pass@1.0: only C has a perfect run, A = B = 0 → the same ties reversed, ρ = −√3/2.
    const trials = [
      ...[0.96, 0.96, 0.9].map((r) => t({ model: "A", reward: r })),
      ...[0.96, 0.5, 0.5].map((r) => t({ model: "B", reward: r })),
      ...[1, 0.2, 0.1].map((r) => t({ model: "C", reward: r })),
    ];
    const s = summarize(trials, { bootstrapSamples: 0 });
    expect(s.correlation.rho).toBeCloseTo(Math.sqrt(3) / 2, 12);
    expect(s.correlation.rho100).toBeCloseTo(-Math.sqrt(3) / 2, 12);
    expect(s.correlation.pass100VsMean.n).toBe(3);
  });
});

describe("hidden cases inside one job", () => {
  it("warns when agents on one (task, attempt) saw different digests, per job", () => {
    const s = summarize([
      t({ agent: "x", reward: 1, seed: 7, digest: "d1", job: "j1" }),
      t({ agent: "y", reward: 1, seed: 7, digest: "d2", job: "j1" }),
      t({ agent: "x", reward: 1, seed: 9, digest: "d3", job: "j2" }),
      t({ agent: "x", task: "t2", reward: 1, seed: 7, digest: "e", job: "j1" }),
      t({ agent: "y", task: "t2", reward: 1, seed: 7, digest: null, job: "j1" }),
    ]);
    expect(s.hiddenCaseWarnings).toEqual([
      {
        task: "t1",
        attempt: 0,
        seedsA: [7],
        seedsB: [],
        digestsA: ["d1", "d2"],
        digestsB: [],
        reason: "digest",
      },
    ]);
  });
});
