import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../core/errors.js";
import { implicitRubric, loadRubric, parseRubric, totalWeight } from "./rubric.js";

const FILE = "tasks/x/tests/rubric.toml";

function errorOf(text: string): InputError {
  try {
    parseRubric(FILE, text);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("expected parseRubric to throw");
}

const GOOD = `# weights need not sum to 1
[[subtask]]
id = "cli_help"
weight = 0.5
kind = "binary"
visibility = "public"
description = "--help works"

[[subtask]]
id = "stress_cases"
weight = 4
kind = "episode"
visibility = "hidden"
`;

describe("parseRubric", () => {
  it("reads [[subtask]] tables in order", () => {
    const r = parseRubric(FILE, GOOD);
    expect(r.source).toBe(FILE);
    expect(r.subtasks).toEqual([
      { id: "cli_help", weight: 0.5, kind: "binary", visibility: "public", description: "--help works" },
      { id: "stress_cases", weight: 4, kind: "episode", visibility: "hidden", description: "" },
    ]);
    expect(totalWeight(r)).toBe(4.5);
  });

  it("points at the bad key of the right table", () => {
    const text = GOOD.replace("weight = 4", "weight = 0");
    expect(errorOf(text).message).toBe(`${FILE}:11: [[subtask]] #2 weight must be a number > 0, got 0`);
    expect(errorOf(GOOD.replace("weight = 4", "weight = 1e308")).message).toBe(
      `${FILE}:11: [[subtask]] #2 weight must be at most 1000000000, got 1e+308`,
    );
    expect(errorOf(GOOD.replace('kind = "episode"', 'kind = "graded"')).message).toBe(
      `${FILE}:12: [[subtask]] #2 kind must be one of binary, continuous, episode, got "graded"`,
    );
    expect(errorOf(GOOD.replace('id = "cli_help"', 'id = "CLI-help"')).message).toBe(
      `${FILE}:3: [[subtask]] #1 id must match [a-z0-9_]+, got "CLI-help"`,
    );
  });

  it("names a missing key at its table's header", () => {
    const e = errorOf(GOOD.replace('visibility = "hidden"\n', ""));
    expect(e.message).toBe(`${FILE}:9: [[subtask]] #2 visibility must be one of public, hidden, got nothing`);
  });

  it("rejects duplicate ids at the second one", () => {
    const e = errorOf(GOOD.replace('id = "stress_cases"', 'id = "cli_help"'));
    expect(e.message).toBe(`${FILE}:10: [[subtask]] #2 id "cli_help" is already used by [[subtask]] #1`);
  });

  it("rejects the reserved id and an empty rubric", () => {
    expect(errorOf(GOOD.replace('id = "cli_help"', 'id = "reward"')).message).toContain(
      '"reward" is reserved for the total',
    );
    expect(errorOf("# nothing\n").message).toMatch(/needs at least one \[\[subtask\]\] table/);
  });

  it("gives syntax errors a line", () => {
    expect(errorOf('[[subtask]]\nid = "a"\nweight = \n').line).toBe(3);
  });
});

describe("loadRubric", () => {
  it("falls back to one hidden continuous subtask named reward", () => {
    const dir = mkdtempSync(join(tmpdir(), "lh-rubric-"));
    const r = loadRubric(dir);
    expect(r).toEqual(implicitRubric());
    expect(r.source).toBeNull();
    expect(r.subtasks).toEqual([
      { id: "reward", weight: 1, kind: "continuous", visibility: "hidden", description: expect.any(String) },
    ]);
  });

  it("reads tests/rubric.toml and records where it came from", () => {
    const dir = mkdtempSync(join(tmpdir(), "lh-rubric-"));
    writeFileSync(join(dir, "rubric.toml"), GOOD);
    const r = loadRubric(dir, "shown/rubric.toml");
    expect(r.subtasks.map((s) => s.id)).toEqual(["cli_help", "stress_cases"]);
    expect(r.source).toBe("tests/rubric.toml");
    writeFileSync(join(dir, "rubric.toml"), GOOD.replace("weight = 4", 'weight = "4"'));
    expect(() => loadRubric(dir, "shown/rubric.toml")).toThrow(
      'shown/rubric.toml:11: [[subtask]] #2 weight must be a number > 0, got "4"',
    );
  });
});
