import { describe, expect, it } from "vitest";
import { UserError } from "../core/errors.js";
import { summarize } from "./summarize.js";
import type { GroupMetrics } from "./summary-types.js";
import { makeTrial as t } from "./test-trial.js";

/**
 * Model A, by hand: R = 1.0, 0.96 (t1) and 0.8, 0.5 (t2), and a grading_error counted as R = 0;
 * one infra_error excluded. Model B: R = 0.2, 0.3 on t1 and 0.97 on t2, cheaper per trial.
 */
const trialsA = [
  t({
    model: "A",
    task: "t1",
    reward: 1,
    self: true,
    cost: 1,
    turns: 10,
    tokens: 100,
    subtasks: [{ id: "s", weight: 1, score: 1 }],
  }),
  t({
    model: "A",
    task: "t1",
    reward: 0.96,
    self: true,
    cost: 2,
    turns: 20,
    tokens: 200,
    subtasks: [{ id: "s", weight: 1, score: 0.5 }],
  }),
  t({ model: "A", task: "t2", category: "c2", reward: 0.8, self: true, cost: 3, turns: 30, tokens: 300 }),
  t({
    model: "A",
    task: "t2",
    category: "c2",
    reward: 0.5,
    outcome: "agent_timeout",
    cost: 4,
    turns: 40,
    tokens: 400,
  }),
  t({ model: "A", task: "t2", category: "c2", reward: null, outcome: "grading_error", self: true, cost: 10 }),
  t({ model: "A", task: "t1", reward: 0, outcome: "infra_error" }),
];
const trialsB = [
  t({ model: "B", task: "t1", reward: 0.2, outcome: "agent_timeout", cost: 0.5 }),
  t({ model: "B", task: "t1", reward: 0.3, self: true, cost: 0.5 }),
  t({ model: "B", task: "t2", category: "c2", reward: 0.97, self: true, cost: 0.5 }),
];

function group(groups: readonly GroupMetrics[], label: string): GroupMetrics {
  const g = groups.find((x) => x.label === label);
  if (g === undefined) throw new Error(`no group ${label}`);
  return g;
}

describe("summarize", () => {
  const s = summarize([...trialsA, ...trialsB], { seed: 42, bootstrapSamples: 400 });
  const a = group(s.groups, "h / A");
  const b = group(s.groups, "h / B");

  it("counts trials, exclusions and outcomes", () => {
    expect(a.trials).toBe(6);
    // Only the infra_error is left out; the grading_error counts.
    expect(a.scored).toBe(5);
    expect(a.outcomes).toEqual({
      completed: 3,
      agent_timeout: 1,
      agent_error: 0,
      grading_error: 1,
      infra_error: 1,
    });
    expect(s.overall.trials).toBe(9);
    expect(s.overall.scored).toBe(8);
  });

  it("computes pass rates with numerators and denominators", () => {
    expect([a.pass095.k, a.pass095.n]).toEqual([2, 5]);
    expect([a.pass100.k, a.pass100.n]).toEqual([1, 5]);
    expect([a.nearMiss?.k, a.nearMiss?.n]).toEqual([1, 5]);
    // Self-terminated: 1.0, 0.96, 0.8 and the grading_error (R = 0). LHTB's false finish is
    // 0.75 ≤ R < 0.95 (only 0.8); stopped early is any R < 0.95 (0.8 and 0).
    expect([a.falseFinish?.k, a.falseFinish?.n]).toEqual([1, 4]);
    expect([a.stoppedEarly?.k, a.stoppedEarly?.n]).toEqual([2, 4]);
    // Unresolved: 0.8 (completed), 0.5 (timeout), 0 (grading_error).
    expect([a.timeoutShare?.k, a.timeoutShare?.n]).toEqual([1, 3]);
    expect(a.gradingErrors).toEqual({ count: 1, firstReason: null, firstTask: "t2" });
    expect([b.pass095.k, b.pass095.n]).toEqual([1, 3]);
    expect([b.timeoutShare?.k, b.timeoutShare?.n]).toEqual([1, 2]);
    expect([s.overall.pass095.k, s.overall.pass095.n]).toEqual([3, 8]);
  });

  it("computes mean R with a reproducible interval", () => {
    expect(a.meanReward.value).toBeCloseTo((1 + 0.96 + 0.8 + 0.5 + 0) / 5, 12);
    expect(a.meanReward.method).toBe("bootstrap");
    expect(a.meanReward.lo as number).toBeGreaterThanOrEqual(0);
    expect(a.meanReward.lo as number).toBeLessThan(a.meanReward.value as number);
    expect(a.meanReward.hi as number).toBeLessThanOrEqual(1);
    const again = summarize([...trialsA, ...trialsB], { seed: 42, bootstrapSamples: 400 });
    expect(again).toEqual(s);
    expect(
      summarize([...trialsA, ...trialsB], { seed: 43, bootstrapSamples: 400 }).groups[0]?.meanReward,
    ).not.toEqual(s.groups[0]?.meanReward);
    expect(s.seed).toBe(42);
  });

  it("computes pass@k over attempts per task", () => {
    // A: t1 has 2/2 passing, t2 has 0/3 → pass@1 = 0.5, pass@2 = (1 + 0)/2, pass^2 = (1 + 0)/2.
    expect(a.passAtK.map((p) => p.value)).toEqual([0.5, 0.5, 0]);
    expect(a.passHatK.map((p) => p.value)).toEqual([0.5, 0.5, 0]);
    // B: t1 0/2, t2 1/1 → pass@1 = (0 + 1)/2; pass@2 only over t1 = 0.
    expect(b.passAtK).toEqual([
      { k: 1, value: 0.5, tasks: 2 },
      { k: 2, value: 0, tasks: 1 },
    ]);
  });

  it("computes usage over scored trials", () => {
    // The grading_error trial spent $10 and counts like any other trial.
    expect(a.usage.meanCost).toBeCloseTo(20 / 5, 12);
    expect(a.usage.meanTurns).toBeCloseTo(100 / 5, 12);
    expect(a.usage.meanTokens).toBeCloseTo(1000 / 5, 12);
    expect(a.usage.costPerResolved).toBeCloseTo(20 / 2, 12);
    expect(a.usage.costUnknown).toBe(0);
    expect(b.usage.costPerResolved).toBeCloseTo(1.5, 12);
  });

  it("breaks down by category, task and subtask", () => {
    expect(s.byCategory.map((g) => g.label)).toEqual([
      "h / A · c1",
      "h / A · c2",
      "h / B · c1",
      "h / B · c2",
    ]);
    const ac1 = group(s.byCategory, "h / A · c1");
    expect(ac1.meanReward.value).toBeCloseTo(0.98, 12);
    expect(ac1.meanReward.lo).toBeNull();
    expect(group(s.byTask, "h / A · c2 / t2").scored).toBe(3);
    expect(s.bySubtask).toHaveLength(1);
    expect(s.bySubtask[0]).toMatchObject({ task: "t1", subtask: "s", n: 2, meanScore: 0.75 });
    expect([s.bySubtask[0]?.solved.k, s.bySubtask[0]?.solved.n]).toEqual([1, 2]);
  });

  it("correlates pass rate with mean R and finds the cost frontier", () => {
    // Two groups: A has the higher pass rates (0.4 > 1/3, 0.2 > 0) and the higher mean R → ρ = 1.
    expect([s.correlation.rho, s.correlation.rho100, s.correlation.n]).toEqual([1, 1, 2]);
    // Two groups are too few for an interval.
    expect(s.correlation.pass095VsMean.spearman.lo).toBeNull();
    // B costs 0.5 per trial, A 4 with a higher pass rate: neither dominates.
    expect(s.frontier).toEqual(["h / B", "h / A"]);
  });

  it("treats float noise at 1 as perfect and groups by any dimension", () => {
    const r = summarize([t({ reward: 0.9999999999999 }), t({ reward: 0.99 })], { groupBy: ["model"] });
    expect(r.groups[0]?.pass100.k).toBe(1);
    expect(r.groups[0]?.label).toBe("m");
    const byCat = summarize([...trialsA, ...trialsB], { groupBy: ["category"], seed: 1 });
    expect(byCat.groups.map((g) => g.label)).toEqual(["c1", "c2"]);
    expect(() => summarize([], { groupBy: ["nope" as "model"] })).toThrow(UserError);
  });

  it("summarises nothing without inventing rates", () => {
    const e = summarize([]);
    expect(e.groups).toEqual([]);
    expect(e.overall.pass095.p).toBeNull();
    expect(e.overall.meanReward.value).toBeNull();
    expect(e.correlation.rho).toBeNull();
  });
});
