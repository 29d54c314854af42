import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { subtaskScoreSchema } from "../core/trial-result.js";
import { scoreTrial, scoreVerifierDir } from "./reward.js";
import { implicitRubric } from "./rubric.js";
import type { Rubric } from "./types.js";

const RUBRIC: Rubric = {
  source: "tests/rubric.toml",
  subtasks: [
    { id: "a", weight: 1, kind: "binary", visibility: "public", description: "" },
    { id: "b", weight: 3, kind: "continuous", visibility: "hidden", description: "" },
  ],
};

const json = (v: unknown) => JSON.stringify(v);
const score = (rewardJson: string | null, rubric: Rubric = RUBRIC, rewardTxt: string | null = null) =>
  scoreTrial({ rewardJson, rewardTxt, rubric });

describe("scoreTrial", () => {
  it("recomputes R from the rubric's weights and ignores the written total", () => {
    const r = score(json({ a: 1, b: 0.5, reward: 0.99 }));
    expect(r.failed).toBe(false);
    expect(r.reward).toBeCloseTo((1 * 1 + 3 * 0.5) / 4, 12);
    expect(r.gradingErrors).toEqual([]);
    expect(r.subtasks.map((s) => [s.id, s.score, s.weight, s.kind, s.visibility])).toEqual([
      ["a", 1, 1, "binary", "public"],
      ["b", 0.5, 3, "continuous", "hidden"],
    ]);
    for (const s of r.subtasks) expect(subtaskScoreSchema.parse(s)).toEqual(s);
  });

  it("fails the trial on a missing subtask and says which", () => {
    const r = score(json({ a: 1 }));
    expect(r.failed).toBe(true);
    expect(r.reward).toBeNull();
    expect(r.subtasks[1]).toMatchObject({ id: "b", score: 0 });
    expect(r.subtasks[1]?.error).toMatch(/missing/);
    expect(r.gradingErrors).toHaveLength(1);
  });

  it.each([
    ["above 1", 1.5],
    ["negative", -0.1],
    ["a string", "0.5"],
    ["null", null],
    ["a boolean", true],
    ["an object", { v: 1 }],
  ])("fails the trial on a value that is %s, never scoring it", (_label, bad) => {
    const r = score(json({ a: 1, b: bad }));
    expect(r.failed).toBe(true);
    expect(r.reward).toBeNull();
    expect(r.subtasks[1]?.error).not.toBeNull();
    expect(r.gradingErrors.some((e) => e.includes('"b"'))).toBe(true);
  });

  it.each([0.5, 0.999, 1e-9])("fails a binary subtask scored %s", (bad) => {
    const r = score(json({ a: bad, b: 0.5 }));
    expect(r.failed).toBe(true);
    expect(r.reward).toBeNull();
    expect(r.gradingErrors[0]).toMatch(/"a" is binary/);
  });

  it("accepts 0 and 1 for binary and any value in [0, 1] for continuous", () => {
    expect(score(json({ a: 0, b: 0.123 })).failed).toBe(false);
    expect(score(json({ a: 1, b: 1 })).reward).toBe(1);
  });

  it("fails a reward.json that names a key twice, whichever value comes last", () => {
    for (const text of [
      '{"a": 0, "b": 1, "a": 1}',
      '{"a": 1, "b": 1, "b": 1}',
      '{"a":1,"b":{"x":1,"x":2},"b":0}',
    ]) {
      const r = score(text);
      expect(r.failed, text).toBe(true);
      expect(r.gradingErrors.join(" "), text).toMatch(/more than once/);
    }
    // The same key inside a nested object or in a string value is not a duplicate at the top.
    expect(score('{"a": 1, "b": 1, "reward": "\\"a\\": 1"}').failed).toBe(false);
  });

  it("treats an overflowing number as out of range", () => {
    const r = score('{"a": 1e999, "b": 1}');
    expect(r.failed).toBe(true);
    expect(r.gradingErrors[0]).toMatch(/outside \[0, 1\]/);
  });

  it("fails on ids the rubric does not declare", () => {
    const r = score(json({ a: 1, b: 1, zeta: 1, extra: 0 }));
    expect(r.failed).toBe(true);
    expect(r.reward).toBeNull();
    expect(r.subtasks.map((s) => s.id)).toEqual(["a", "b"]);
    expect(r.gradingErrors).toEqual([expect.stringContaining("extra, zeta")]);
  });

  it.each([
    ["no file at all", null, null],
    ["unparsable JSON", "{a: 1", null],
    ["an array", "[1, 2]", null],
    ["a bare number", "0.7", null],
    ["JSON null", "null", null],
  ])("fails on %s", (_label, rewardJson, rewardTxt) => {
    const r = score(rewardJson, RUBRIC, rewardTxt);
    expect(r.failed).toBe(true);
    expect(r.reward).toBeNull();
    expect(r.gradingErrors.length).toBeGreaterThan(0);
  });

  it("supports plain Harbor tasks through the implicit rubric", () => {
    const implicit = implicitRubric();
    expect(score(null, implicit, "0.625\n")).toMatchObject({
      reward: 0.625,
      failed: false,
      gradingErrors: [],
    });
    expect(score(json({ reward: 0.25 }), implicit)).toMatchObject({ reward: 0.25, failed: false });
    expect(score(null, implicit, "1")).toMatchObject({ reward: 1 });
    // Extra Harbor metrics beside `reward` are neither scored nor errors without a rubric file.
    expect(score(json({ reward: 0.5, tests_passed: 3, a: 1 }), implicit)).toMatchObject({
      reward: 0.5,
      gradingErrors: [],
    });
    // Without `reward`, R is the mean of the numeric keys; every numeric key is a recorded metric.
    const noTotal = score(json({ tests_passed: 3 }), implicit);
    expect(noTotal).toMatchObject({ reward: null, failed: true, metrics: { tests_passed: 3 } });
    expect(noTotal.gradingErrors).toEqual([expect.stringMatching(/3 is outside \[0, 1\]/)]);
    expect(score(json({ accuracy: 0.5, coverage: 1, note: "x" }), implicit)).toMatchObject({
      reward: 0.75,
      failed: false,
      metrics: { accuracy: 0.5, coverage: 1 },
    });
    expect(score(json({ pass_rate: 0.4 }), implicit)).toMatchObject({
      reward: 0.4,
      metrics: { pass_rate: 0.4 },
    });
    expect(score(json({ reward: "high", a: 1 }), implicit)).toMatchObject({ reward: null, failed: true });
    expect(score(json({ note: "x" }), implicit).gradingErrors).toEqual([
      "reward.json has no numeric key to score",
    ]);
    expect(score(json({ reward: 0.5, tests_passed: 3 }), implicit).metrics).toEqual({
      reward: 0.5,
      tests_passed: 3,
    });
    // Python's json.dump writes NaN and Infinity, and Harbor reads them back: no metric, no error.
    expect(
      score('{"reward": 1.0, "f1": NaN, "loss": Infinity, "d": -Infinity, "s": "NaN"}', implicit),
    ).toMatchObject({
      reward: 1,
      failed: false,
      gradingErrors: [],
      metrics: { reward: 1 },
    });
    expect(score('{"accuracy": 0.5, "f1": NaN}', implicit)).toMatchObject({ reward: 0.5, failed: false });
    expect(score('{"reward": NaN}', implicit).gradingErrors).toEqual([
      'reward.json "reward" must be a number, got "NaN"',
    ]);
    expect(score('{"reward": NaN', implicit).gradingErrors).toEqual([
      expect.stringMatching(/^reward\.json is not valid JSON: .*NaN/),
    ]);
    // Harbor reads the first line of reward.txt.
    expect(score(null, implicit, "1\npytest: 3 passed\n")).toMatchObject({
      reward: 1,
      metrics: { reward: 1 },
    });
    expect(score(null, implicit, "lots")).toMatchObject({ reward: null, failed: true });
    expect(score(null, implicit, "  ")).toMatchObject({ reward: null, failed: true });
    // Only a plain decimal number counts: hex, binary, Infinity are refused.
    for (const odd of ["0x1", "0b1", "0o1", "Infinity", "1_0", "1 2", "nan"]) {
      expect(score(null, implicit, odd), odd).toMatchObject({ reward: null, failed: true });
    }
    expect(score(null, implicit, "+.5e0\n")).toMatchObject({ reward: 0.5, failed: false });
    // Out of range in reward.txt fails the trial, like in reward.json.
    const over = score(null, implicit, "7");
    expect(over).toMatchObject({ reward: null, failed: true });
    expect(over.gradingErrors).toHaveLength(1);
  });

  it("reads reward.txt first for a plain task (as Harbor does), reward.json first for a rubric task, and refuses reward.txt for a multi-subtask rubric", () => {
    expect(score(json({ reward: 0.5 }), implicitRubric(), "0.9").reward).toBe(0.9);
    expect(score(json({ a: 1, b: 0.5 }), RUBRIC, "0.9").metrics).toBeNull();
    const r = score(null, RUBRIC, "0.9");
    expect(r.failed).toBe(true);
    expect(r.gradingErrors[0]).toMatch(/declares 2 subtasks/);
  });

  it("fills messages from reward-details.json and tolerates a broken one", () => {
    const details = json({ subtasks: { b: { message: "rmse 0.08", extra: [1] }, a: { message: 5 } } });
    const r = scoreTrial({
      rewardJson: json({ a: 1, b: 1 }),
      rewardTxt: null,
      detailsJson: details,
      rubric: RUBRIC,
    });
    expect(r.subtasks.map((s) => s.message)).toEqual([null, "rmse 0.08"]);
    const broken = scoreTrial({
      rewardJson: json({ a: 1, b: 1 }),
      rewardTxt: null,
      detailsJson: "{",
      rubric: RUBRIC,
    });
    expect(broken.reward).toBe(1);
    expect(broken.gradingErrors).toEqual([expect.stringMatching(/reward-details\.json ignored/)]);
  });

  it("reads the files from a verifier folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lh-reward-"));
    expect((await scoreVerifierDir(dir, RUBRIC)).failed).toBe(true);
    writeFileSync(join(dir, "reward.json"), json({ a: 0, b: 1 }));
    writeFileSync(join(dir, "reward-details.json"), json({ subtasks: { a: { message: "no" } } }));
    const r = await scoreVerifierDir(dir, RUBRIC);
    expect(r.reward).toBeCloseTo(0.75, 12);
    expect(r.subtasks[0]?.message).toBe("no");
  });
});

const idArb = fc.stringMatching(/^[a-z0-9_]{1,8}$/).filter((id) => id !== "reward");
const rubricArb = fc
  .uniqueArray(fc.record({ id: idArb, weight: fc.double({ min: 1e-3, max: 1e3, noNaN: true }) }), {
    minLength: 1,
    maxLength: 8,
    selector: (s) => s.id,
  })
  .map(
    (subs): Rubric => ({
      source: "tests/rubric.toml",
      subtasks: subs.map((s) => ({ ...s, kind: "continuous", visibility: "hidden", description: "" })),
    }),
  );
// Anything a sandbox might write for a subtask: good scores, junk, or nothing.
const valueArb = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.double({ noNaN: false }),
  fc.string(),
  fc.constant(null),
  fc.constant(undefined),
);

describe("scoreTrial properties", () => {
  it("a trial is scored exactly when every value is valid, and R is then the weighted mean", () => {
    fc.assert(
      fc.property(rubricArb, fc.array(valueArb, { minLength: 8, maxLength: 8 }), (rubric, vals) => {
        const written: Record<string, unknown> = {};
        rubric.subtasks.forEach((s, i) => {
          if (vals[i] !== undefined) written[s.id] = vals[i];
        });
        const r = score(JSON.stringify(written), rubric);
        const allValid = rubric.subtasks.every((_s, i) => {
          const v: unknown = JSON.parse(JSON.stringify({ v: vals[i] })).v;
          return typeof v === "number" && v >= 0 && v <= 1;
        });
        expect(r.failed).toBe(!allValid);
        if (!allValid) {
          expect(r.reward).toBeNull();
          return;
        }
        const R = r.reward ?? Number.NaN;
        expect(R).toBeGreaterThanOrEqual(0);
        expect(R).toBeLessThanOrEqual(1);
        let num = 0;
        let den = 0;
        rubric.subtasks.forEach((s, i) => {
          const v = JSON.parse(JSON.stringify({ v: vals[i] })).v;
          const good = typeof v === "number" && v >= 0 && v <= 1 ? v : 0;
          num += s.weight * good;
          den += s.weight;
        });
        expect(R).toBeCloseTo(num / den, 9);
      }),
      { numRuns: 300 },
    );
  });

  it("R does not depend on the order of keys in reward.json", () => {
    // The text is built by hand so the order really differs in the bytes, even for ids that a JS
    // object would reorder (integer-like keys).
    const text = (entries: (readonly [string, number])[]) =>
      `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`;
    fc.assert(
      fc.property(
        rubricArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 8, maxLength: 8 }),
        fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
        (rubric, vals, order) => {
          const entries = rubric.subtasks.map((s, i) => [s.id, vals[i] ?? 0] as const);
          const permuted = entries
            .map((e, i) => ({ e, k: order[i] ?? 0 }))
            .sort((x, y) => x.k - y.k)
            .map((x) => x.e);
          const a = score(text([...entries, ["reward", 0.5]]), rubric);
          const b = score(text([["reward", 0.5], ...permuted]), rubric);
          expect(a.reward).toBe(b.reward);
          expect(a.subtasks).toEqual(b.subtasks);
        },
      ),
      { numRuns: 200 },
    );
  });
});
