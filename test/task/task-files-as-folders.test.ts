import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { loadTask, loadTaskSet } from "../../src/task/load.js";
import { runCli } from "../support/cli-process.js";

// A folder where a task's file belongs is the author's mistake: one line naming that file
// (exit 2, or a dataset's skip reason), never EISDIR without a name, nor "missing".

const root = mkdtempSync(join(tmpdir(), "longhaul-task-folders-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const RUBRIC = '[[subtask]]\nid = "a"\nweight = 1\nkind = "binary"\nvisibility = "public"\n';

/** A small valid host task, with `asFolder` (a path inside it) made a folder instead of a file. */
function task(name: string, asFolder: string | null, parent = root): string {
  const dir = join(parent, name);
  mkdirSync(join(dir, "tests"), { recursive: true });
  const files: Record<string, string> = {
    "task.toml": 'version = "1.0"\n',
    "instruction.md": "Do nothing.\n",
    "tests/test.sh": "#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n",
    "tests/rubric.toml": RUBRIC,
  };
  for (const [rel, text] of Object.entries(files)) {
    if (rel === asFolder) mkdirSync(join(dir, rel), { recursive: true });
    else writeFileSync(join(dir, rel), text);
  }
  return dir;
}

async function loadError(dir: string): Promise<string> {
  const e = await loadTask(dir).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(UserError);
  return (e as Error).message;
}

describe("a folder in place of a task file", () => {
  it.each(["task.toml", "tests/rubric.toml", "instruction.md", "tests/test.sh"])(
    "%s: names the file and says it is a folder",
    async (rel) => {
      const dir = task(`t-${rel.replaceAll("/", "-")}`, rel);
      expect(await loadError(dir)).toBe(`${join(dir, rel)}: is a folder, where a file is expected`);
    },
  );

  it("the same task loads when every file is a file", async () => {
    expect((await loadTask(task("fine", null))).name).toBe("fine");
  });

  it("in a dataset, the task is skipped with a reason naming the file", async () => {
    const ds = join(root, "ds");
    task("bad", "task.toml", ds);
    task("good", null, ds);
    const set = await loadTaskSet([ds]);
    expect(set.tasks.map((t) => t.name)).toEqual(["good"]);
    expect(set.skipped.map((s) => s.reason)).toEqual([
      `${join(ds, "bad", "task.toml")}: is a folder, where a file is expected`,
    ]);
  });

  it("`task check` and `run` exit 2 with one line naming task.toml", async () => {
    const dir = task("cli", "task.toml");
    const want = `longhaul: ${join(dir, "task.toml")}: is a folder, where a file is expected\n`;
    const check = await runCli(["task", "check", dir]);
    expect([check.code, check.stderr]).toEqual([2, want]);
    const run = await runCli(["run", dir, "--agent", "nop", "--jobs-dir", join(root, "jobs")]);
    expect([run.code, run.stderr]).toEqual([2, want]);
  });
});
