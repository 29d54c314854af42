import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/index.js";
import { checkTask } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { loadTask } from "../../src/task/index.js";
import { scaffoldTask } from "../../src/task/scaffold/scaffold.js";
import { tempDir } from "./helpers.js";

describe("task new", () => {
  it("scaffolds a task that passes task check as generated", async () => {
    const dir = scaffoldTask(join(tempDir("scaffold"), "ledger-totals"), "professional-workflows");
    const task = await loadTask(dir);
    expect(task.config.metadata.category).toBe("professional-workflows");
    const result = await checkTask(task, { provider: getSandboxProvider("bwrap"), seeds: [1, 2, 3] });
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.checks.map((c) => c.name)).toContain("different seeds → different stress inputs");
    expect(result.rewards.oracle).toEqual([1, 1, 1]);
    // 12 trials (three agents on three seeds, and a determinism re-run of each), every program
    // the grader runs in its own sealed sandbox: minutes, not seconds, on a busy 2-core machine.
  }, 240_000);

  it("refuses a bad name, an unknown category and an existing folder", () => {
    const base = tempDir("scaffold");
    expect(() => scaffoldTask(join(base, "Bad Name"))).toThrow(/lowercase/);
    expect(() => scaffoldTask(join(base, "ok"), "cooking")).toThrow(/unknown category "cooking"/);
    scaffoldTask(join(base, "twice"));
    expect(() => scaffoldTask(join(base, "twice"))).toThrow(/already exists/);
    writeFileSync(join(base, "afile"), "");
    expect(() => scaffoldTask(join(base, "afile", "sub"))).toThrow(
      new UserError(
        `task new ${join(base, "afile", "sub")}: ${join(base, "afile")} is a file, where a folder is expected`,
      ),
    );
  });
});
