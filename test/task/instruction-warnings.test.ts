import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INSTRUCTION_WARN_BYTES, loadTask } from "../../src/task/load.js";
import { runCli } from "../support/cli-process.js";

// An empty instruction.md, or one far too large to be an instruction, is a warning naming the
// file: a task written for Harbor, which takes both, must still load.

const root = mkdtempSync(join(tmpdir(), "longhaul-instruction-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const RUBRIC = '[[subtask]]\nid = "a"\nweight = 1\nkind = "binary"\nvisibility = "public"\n';

/** A small valid host task whose instruction.md holds `instruction`. */
function task(name: string, instruction: string, parent = root): string {
  const dir = join(parent, name);
  mkdirSync(join(dir, "tests"), { recursive: true });
  mkdirSync(join(dir, "solution"), { recursive: true });
  writeFileSync(join(dir, "task.toml"), 'version = "1.0"\n');
  writeFileSync(join(dir, "instruction.md"), instruction);
  writeFileSync(join(dir, "tests/test.sh"), "#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n");
  writeFileSync(join(dir, "tests/rubric.toml"), RUBRIC);
  writeFileSync(join(dir, "solution/solve.sh"), "#!/bin/bash\ntrue\n");
  return dir;
}

const EMPTY = "is empty: the agent is given no instruction";
const BLANK = "is empty (only whitespace): the agent is given no instruction";
const big = (mib: string) =>
  `is ${mib} MiB, more than 1 MiB (some 250,000 tokens): the agent's model is sent all of it in its first prompt; is it the instruction?`;

describe("instruction.md warnings", () => {
  it("an empty or whitespace-only instruction loads, with a warning naming the file", async () => {
    for (const [name, text, why] of [
      ["empty", "", EMPTY],
      ["blank", " \n\t\r\n\n", BLANK],
    ] as const) {
      const dir = task(name, text);
      const t = await loadTask(dir);
      expect(t.instruction).toBe(text);
      expect(t.warnings).toEqual([`${join(dir, "instruction.md")}: ${why}`]);
    }
  });

  it("an instruction over 1 MiB loads, with a warning giving its size; one of 1 MiB has none", async () => {
    const line = "Sort the rows by the second column and keep the header.\n";
    const fill = (bytes: number) => line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
    const at = task("at-limit", fill(INSTRUCTION_WARN_BYTES));
    expect((await loadTask(at)).warnings).toEqual([]);
    const over = task("over-limit", fill(INSTRUCTION_WARN_BYTES + 1));
    expect((await loadTask(over)).warnings).toEqual([`${join(over, "instruction.md")}: ${big("1.0")}`]);
    const huge = task("huge", fill(8 * 1024 * 1024));
    const t = await loadTask(huge);
    expect(t.instruction.length).toBe(8 * 1024 * 1024);
    expect(t.warnings).toEqual([`${join(huge, "instruction.md")}: ${big("8.0")}`]);
  });

  it("`task check` and `run` print each warning once per task on stderr", async () => {
    const ds = join(root, "ds");
    const empty = task("a-empty", "", ds);
    const large = task("b-large", "x".repeat(2 * 1024 * 1024), ds);
    const lines = [
      `warning: ${join(empty, "instruction.md")}: ${EMPTY}`,
      `warning: ${join(large, "instruction.md")}: ${big("2.0")}`,
    ];
    const run = await runCli(["run", ds, "--agent", "nop", "--jobs-dir", join(root, "jobs")]);
    const check = await runCli(["task", "check", ds, "--quick", "--seeds", "1", "--no-mutants"]);
    for (const [what, r] of [
      ["run", run],
      ["task check", check],
    ] as const) {
      const stderr = r.stderr.split("\n");
      for (const l of lines)
        expect(
          stderr.filter((s) => s === l),
          `${what}: ${r.stderr}`,
        ).toHaveLength(1);
    }
    // Warnings, not errors: both tasks ran.
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("a-empty");
    expect(run.stdout).toContain("b-large");
  }, 120_000);
});
