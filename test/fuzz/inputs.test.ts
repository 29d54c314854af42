import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseExternalResults } from "../../src/analysis/external-results.js";
import { InputError } from "../../src/core/errors.js";
import { scoreTrial } from "../../src/grading/reward.js";
import { implicitRubric, parseRubric } from "../../src/grading/rubric.js";
import { parseJobConfig } from "../../src/store/job-config.js";
import { parseTaskConfig } from "../../src/task/config.js";
import { checkWire, MODEL_SEEDS, wireCases } from "./model-wire.js";
import { FILE_TARGETS, inputsFor } from "./targets.js";

/** A fixed-seed sample of what bench/fuzz-inputs.ts runs 10,000 times per format. */
const CASES = 200;
const SEED = 424242;
const BROKEN = resolve(import.meta.dirname, "../fixtures/broken");

describe("fuzzed inputs parse or fail as user errors naming file, line and field", () => {
  for (const target of FILE_TARGETS) {
    it(target.name, async () => {
      const inputs = [...target.seeds, ...fc.sample(inputsFor(target), { numRuns: CASES, seed: SEED })];
      const failures: string[] = [];
      for (const input of inputs) {
        const problem = await target.check(input);
        if (problem !== undefined) failures.push(`${problem}\n  input: ${JSON.stringify(input)}`);
      }
      expect(failures).toEqual([]);
    });
  }

  it("model responses (OpenAI and Anthropic, JSON and SSE cut mid-event)", async () => {
    const cases = [...MODEL_SEEDS, ...fc.sample(wireCases(), { numRuns: CASES, seed: SEED })];
    const failures: string[] = [];
    for (const c of cases) {
      const problem = await checkWire(c);
      if (problem !== undefined) failures.push(`${problem}\n  case: ${JSON.stringify(c)}`);
    }
    expect(failures).toEqual([]);
    // The unbroken seeds are real answers, so the harness is not passing everything by failing it.
    for (const c of MODEL_SEEDS) expect(await checkWire(c)).toBeUndefined();
  }, 120_000);
});

/**
 * Files of one format, named as the format's file with a `.broken` suffix (so that linters and
 * formatters leave them broken), returned under their name without the suffix.
 */
const corpus = (dir: string): [string, string][] =>
  readdirSync(join(BROKEN, dir))
    .sort()
    .map((f) => [f.replace(/\.broken$/, ""), readFileSync(join(BROKEN, dir, f), "utf8")]);

/** The error a parser throws for `text`, which must be an InputError naming `file`. */
function refusal(parse: () => unknown, file: string): InputError {
  try {
    parse();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    const err = e as InputError;
    expect(err.message.startsWith(file)).toBe(true);
    expect(err.line !== undefined || err.field !== undefined).toBe(true);
    return err;
  }
  throw new Error(`${file} was accepted`);
}

describe("hand-broken files (test/fixtures/broken) are refused with file, line or field", () => {
  it.each(corpus("task-toml"))("task.toml: %s", (name, text) => {
    const err = refusal(() => parseTaskConfig(`t/${name}`, text), `t/${name}`);
    expect(err.line).toBeDefined();
  });
  it.each(corpus("rubric-toml"))("rubric.toml: %s", (name, text) => {
    refusal(() => parseRubric(`tests/${name}`, text), `tests/${name}`);
  });
  it.each(corpus("import"))("import: %s", (name, text) => {
    const err = refusal(() => parseExternalResults(text, name), name);
    expect(err.line).toBeDefined();
  });
  it.each(corpus("job-config"))("job config.json: %s", (name, text) => {
    refusal(() => parseJobConfig(`jobs/j/${name}`, text), `jobs/j/${name}`);
  });
  it.each(corpus("reward"))("reward file: %s", (name, text) => {
    const rubric = parseRubric(
      "rubric.toml",
      '[[subtask]]\nid = "public_sum"\nweight = 1\nkind = "binary"\nvisibility = "public"\n[[subtask]]\nid = "hidden_stress"\nweight = 1\nkind = "continuous"\nvisibility = "hidden"\n',
    );
    for (const r of [rubric, implicitRubric()]) {
      const input = name.startsWith("details")
        ? { rewardJson: '{"public_sum": 1, "hidden_stress": 1}', rewardTxt: "1", detailsJson: text }
        : name.endsWith(".txt")
          ? { rewardJson: null, rewardTxt: text }
          : { rewardJson: text, rewardTxt: null };
      const score = scoreTrial({ ...input, rubric: r });
      expect(score.failed).toBe(score.reward === null);
      if (score.reward !== null) {
        expect(score.reward).toBeGreaterThanOrEqual(0);
        expect(score.reward).toBeLessThanOrEqual(1);
      } else expect(score.gradingErrors.join("\n")).toMatch(/reward/);
    }
  });
});
