import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTasks } from "./support/dataset-check.js";

/**
 * Every bundled grader's expected values come from somewhere other than the solution's own code
 * (docs/dataset.md, "What each grader trusts"): nothing under tests/ may import or copy a solution
 * module, and tests/README.md says for every subtask where its expected values come from. (Shared
 * blocks of code are `task check`'s shared-code check, test/tasks/check-shared-code.test.ts.)
 */
const tasks = await bundledTasks();

function pythonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".py"))
    .map((f) => join(dir, f));
}

describe("graders independent of the solution", () => {
  it("covers every bundled task", () => {
    expect(tasks.length).toBeGreaterThanOrEqual(13);
  });

  describe.each(tasks.map((t) => [t.name, t] as const))("%s", (_name, task) => {
    it("imports and copies no solution module", () => {
      const solution = pythonFiles(task.paths.solution);
      expect(solution.length).toBeGreaterThan(0);
      const modules = solution.map((f) => basename(f, ".py"));
      for (const f of pythonFiles(task.paths.tests)) {
        const text = readFileSync(f, "utf8");
        for (const m of modules) {
          expect(text, `${basename(f)} imports ${m}`).not.toMatch(
            new RegExp(`^\\s*(import|from)\\s[^#\\n]*\\b${m}\\b`, "m"),
          );
          expect(existsSync(join(task.paths.tests, `${m}.py`)), `tests/${m}.py`).toBe(false);
        }
        for (const s of solution)
          expect(text === readFileSync(s, "utf8"), `${basename(f)} = ${basename(s)}`).toBe(false);
      }
    });

    it("says in tests/README.md where every subtask's expected values come from", () => {
      const readme = readFileSync(join(task.paths.tests, "README.md"), "utf8");
      for (const s of task.rubric.subtasks) {
        const row = readme.split("\n").find((l) => l.startsWith(`| \`${s.id}\` |`));
        expect(row, s.id).toBeDefined();
        expect(row, s.id).toMatch(
          /construction|independent method|invariant|expected files|shipped answers/i,
        );
      }
    });
  });
});
