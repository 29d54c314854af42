import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors.js";
import { parseTaskConfig } from "../../src/task/config.js";
import { loadTask } from "../../src/task/load.js";

// What a task's author reads for a value the schema refuses, and for a key rubric.toml does
// not define: the value as TOML spells it, the rule actually broken, a warning per unknown key.

const root = mkdtempSync(join(tmpdir(), "longhaul-task-values-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SUBTASK = 'id = "a"\nweight = 1\nkind = "binary"\nvisibility = "public"\n';

function task(name: string, rubric: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "tests"), { recursive: true });
  writeFileSync(join(dir, "task.toml"), 'version = "1.0"\n');
  writeFileSync(join(dir, "instruction.md"), "Do nothing.\n");
  writeFileSync(join(dir, "tests", "test.sh"), "#!/bin/bash\n");
  writeFileSync(join(dir, "tests", "rubric.toml"), rubric);
  return dir;
}

function configError(text: string): string {
  try {
    parseTaskConfig("t/task.toml", text);
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error("expected task.toml to be refused");
}

describe("refused values are shown as written", () => {
  it.each([
    ["1e400", "inf"],
    ["inf", "inf"],
    ["-inf", "-inf"],
    ["nan", "nan"],
  ])("timeout_sec = %s: got %s, not null", (written, shown) => {
    expect(configError(`[agent]\ntimeout_sec = ${written}\n`)).toBe(
      `t/task.toml:2: [agent] timeout_sec must be a positive number, got ${shown}`,
    );
  });

  it("rubric weight = inf: got inf", async () => {
    const dir = task(
      "inf-weight",
      `[[subtask]]\nid = "a"\nweight = inf\nkind = "binary"\nvisibility = "public"\n`,
    );
    await expect(loadTask(dir)).rejects.toThrow(
      `${join(dir, "tests", "rubric.toml")}:3: [[subtask]] #1 weight must be a number > 0, got inf`,
    );
  });
});

describe("[task] name says which rule it breaks", () => {
  it.each([
    ["../../evil", "must not have a . or .. path part"],
    ["org/./x", "must not have a . or .. path part"],
    ["-x", "must start with a letter or digit"],
    ["a b", 'must use only letters, digits, . _ - or / (not " ")'],
  ])("%s: %s", (name, why) => {
    expect(configError(`[task]\nname = ${JSON.stringify(name)}\n`)).toBe(
      `t/task.toml:2: [task] name ${why}, got ${JSON.stringify(name)}`,
    );
  });

  it("accepts package names", () => {
    expect(parseTaskConfig("t/task.toml", '[task]\nname = "org/x-1.2_b"\n').task.name).toBe("org/x-1.2_b");
  });
});

describe("rubric.toml keys it does not define", () => {
  it("are warnings naming the file, line and key, like task.toml's", async () => {
    const dir = task(
      "unknown-keys",
      `title = "x"\n\n[[subtask]]\n${SUBTASK}\n[[subtask]]\n${SUBTASK.replace('"a"', '"b"')}wieght = 2\n`,
    );
    const file = join(dir, "tests", "rubric.toml");
    const t = await loadTask(dir);
    expect(t.warnings).toEqual([
      `${file}:1: title is not a rubric.toml field; ignored`,
      `${file}:14: [[subtask]] #2 wieght is not a rubric.toml field; ignored`,
    ]);
    expect(t.rubric.subtasks.map((s) => s.weight)).toEqual([1, 1]);
  });

  it("none for a rubric using every documented key", async () => {
    const dir = task("known-keys", `[[subtask]]\n${SUBTASK}description = "all of it"\n`);
    expect((await loadTask(dir)).warnings).toEqual([]);
  });
});
