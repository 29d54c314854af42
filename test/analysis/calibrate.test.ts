import { describe, expect, it } from "vitest";
import { type AnalysisTrial, calibrate, inBand, parseBand, THRESHOLDS } from "../../src/analysis/index.js";
import { makeTrial } from "../../src/analysis/test-trial.js";
import { UserError } from "../../src/core/index.js";
import { renderCalibration } from "../../src/report/index.js";
import { calibrationAttempts, EXPECTED_RANKING } from "./calibration-fixture.js";

function trials(): AnalysisTrial[] {
  return calibrationAttempts().map((a) =>
    makeTrial({
      task: a.task,
      category: a.category,
      model: a.model,
      attempt: a.attempt,
      reward: a.reward,
      outcome: a.outcome,
    }),
  );
}

const row = (c: ReturnType<typeof calibrate>, task: string) => {
  const r = c.tasks.find((t) => t.task === task);
  if (r === undefined) throw new Error(`no row for ${task}`);
  return r;
};

describe("calibrate", () => {
  it("ranks tasks by models passing, then solve rate, then mean R", () => {
    const c = calibrate(trials(), { bootstrapSamples: 200 });
    expect(c.tasks.map((t) => t.task)).toEqual(EXPECTED_RANKING);
    expect(c.tasks.map((t) => t.rank)).toEqual(EXPECTED_RANKING.map((_, i) => i + 1));
    expect(c.threshold).toBe(THRESHOLDS.pass);
    expect(c.models).toEqual(["h / m1", "h / m2", "h / m3"]);
    const t05 = row(c, "t05");
    expect(t05).toMatchObject({ models: 3, modelsPassing: 2, attempts: 9, passes: 4 });
    expect(t05.perModel.map((m) => m.passes)).toEqual([3, 1, 0]);
    // t09 and t10 tie on passes (none); mean R 0.8 ranks above 0.1.
    expect(row(c, "t09").meanReward.value).toBeCloseTo(0.8, 12);
    expect(row(c, "t10").meanReward.value).toBeCloseTo(0.1, 12);
  });

  it("excludes infra errors (and says how many) but counts a grading error as a failed attempt", () => {
    const c = calibrate(trials(), { bootstrapSamples: 200 });
    const t04 = row(c, "t04");
    expect(t04).toMatchObject({ attempts: 9, passes: 4, infraExcluded: 2 });
    expect(t04.solveRate.p).toBeCloseTo(4 / 9, 12);
    expect(t04.meanReward.value).toBeCloseTo((4 + 5 * 0.5) / 9, 12);
    expect(c.infraExcluded).toBe(2);
    const t08 = row(c, "t08");
    expect(t08).toMatchObject({ attempts: 10, passes: 1, gradingErrors: 1, infraExcluded: 0 });
    expect(t08.meanReward.value).toBeCloseTo((1 + 8 * 0.5) / 10, 12);
  });

  it("gives each task's mean R a bootstrap interval that contains it", () => {
    const c = calibrate(trials(), { bootstrapSamples: 300, seed: 5 });
    for (const t of c.tasks.filter((x) => x.attempts >= 3)) {
      const { value, lo, hi } = t.meanReward;
      expect(lo).not.toBeNull();
      expect(lo as number).toBeLessThanOrEqual(value as number);
      expect(hi as number).toBeGreaterThanOrEqual(value as number);
    }
    const t04 = row(c, "t04").meanReward;
    expect((t04.hi as number) - (t04.lo as number)).toBeGreaterThan(0.05);
    // Same seed, same interval; the task's interval does not depend on the other tasks.
    const alone = calibrate(
      trials().filter((t) => t.task.name === "t04"),
      { bootstrapSamples: 300, seed: 5 },
    );
    expect(row(alone, "t04").meanReward).toEqual(t04);
  });

  it("proposes the tasks in the default band (0, 0.5], never a task with too few attempts", () => {
    const c = calibrate(trials(), { bootstrapSamples: 0 });
    expect(c.band).toEqual({ low: 0, high: 0.5 });
    expect(c.proposed).toEqual(["t04", "t06", "t05", "t07", "t08"]);
    const t11 = row(c, "t11");
    expect(t11).toMatchObject({ attempts: 2, fewAttempts: true, inBand: false });
    expect(t11.solveRate.p).toBe(0.5);
    // With a lower bar t11 is placed: its rate 0.5 is on the closed upper edge.
    expect(calibrate(trials(), { minAttempts: 2, bootstrapSamples: 0 }).proposed).toContain("t11");
  });

  it("applies a given band: open below, closed above", () => {
    const mid = calibrate(trials(), { band: { low: 0.3, high: 0.5 }, bootstrapSamples: 0 });
    expect(mid.proposed).toEqual(["t04", "t06", "t05"]);
    const all = calibrate(trials(), { band: { low: 0, high: 1 }, bootstrapSamples: 0 });
    expect(all.proposed).toEqual(["t01", "t02", "t03", "t04", "t06", "t05", "t07", "t08"]);
    expect(inBand(0.5, { low: 0, high: 0.5 })).toBe(true);
    expect(inBand(0, { low: 0, high: 0.5 })).toBe(false);
  });

  it("picks a target spread over categories in proportion to the band's counts", () => {
    // In the band: A {t04, t07}, B {t05, t08}, C {t06}; the middle of (0, 0.5] is 0.25.
    const three = calibrate(trials(), { target: 3, bootstrapSamples: 0 }).target;
    expect(three?.categories.map((q) => [q.category, q.inBand, q.quota])).toEqual([
      ["A", 2, 1],
      ["B", 2, 1],
      ["C", 1, 1],
    ]);
    // Within A, t07 (2/9) is nearer 0.25 than t04 (4/9); within B, t08 (1/10) than t05 (4/9).
    expect(three?.picked).toEqual(["t06", "t07", "t08"]);
    expect(three?.shortfall).toBe(0);
    const four = calibrate(trials(), { target: 4, bootstrapSamples: 0 }).target;
    expect(four?.categories.map((q) => q.quota)).toEqual([2, 1, 1]);
    expect(four?.picked).toEqual(["t04", "t06", "t07", "t08"]);
    const seven = calibrate(trials(), { target: 7, bootstrapSamples: 0 }).target;
    expect(seven?.picked).toEqual(["t04", "t06", "t05", "t07", "t08"]);
    expect(seven?.shortfall).toBe(2);
  });

  it("rejects a bad band, target or minimum with a UserError naming the rule", () => {
    expect(parseBand("0.1,0.6")).toEqual({ low: 0.1, high: 0.6 });
    for (const bad of ["0.5,0.2", "0.3,0.3", "a,b", "0.5", "-0.1,0.5", "0,1.5", "0,0.5,1", ","]) {
      expect(() => parseBand(bad), bad).toThrow(UserError);
    }
    expect(() => parseBand("0.5,0.2")).toThrow(/0 ≤ LOW < HIGH ≤ 1/);
    expect(() => calibrate(trials(), { target: 0 })).toThrow(UserError);
    expect(() => calibrate(trials(), { minAttempts: 0 })).toThrow(UserError);
  });

  it("renders the ranking as a table, Markdown and a self-contained HTML page", () => {
    const c = calibrate(trials(), { target: 3, bootstrapSamples: 0 });
    const table = renderCalibration(c, "table");
    expect(table).toContain("11 candidate task(s), 3 agent × model pair(s)");
    expect(table).toContain("2 infra error(s) excluded");
    expect(table).toMatch(/^4\s+t04\s+A\s+3\/3\s+4\/9 \(44\.4%\)/m);
    expect(table).toMatch(/^7\s+t11 .*too few attempts$/m);
    expect(table).toMatch(/^8\s+t07 .*in band, picked$/m);
    expect(table).toContain("proposed (5): t04, t06, t05, t07, t08");
    const md = renderCalibration(c, "md");
    expect(md).toContain("| 5 | t06 | C | 3/3 | 3/9 (33.3%)");
    const html = renderCalibration(c, "html");
    expect(html).toContain('<svg id="chart-calibration"');
    expect(html.match(/<circle class="task"/g)).toHaveLength(11);
    expect(html).toContain('<tr class="in-band picked"><td>8</td><td>t07</td>');
    expect(html).not.toMatch(/\b(src|href)=/);
    const data = html.match(/<script type="application\/json" id="calibration-data">(.*)<\/script>/)?.[1];
    expect(JSON.parse(data ?? "null").proposed).toEqual(c.proposed);
    expect(JSON.parse(renderCalibration(c, "json")).target.picked).toEqual(["t06", "t07", "t08"]);
  });
});
