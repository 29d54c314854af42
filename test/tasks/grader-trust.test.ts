import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTasksDir } from "../../src/runner/index.js";
import { loadTasks } from "../../src/task/index.js";
import { runOneTrial } from "../support/one-trial.js";

/**
 * Bundled graders must not trust the agent's workdir: public cases come from the grader's own copy
 * under tests/, and the only thing a grader takes from /app is the program under test.
 */
const tasks = await loadTasks([bundledTasksDir()]);

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((p) => statSync(join(dir, p)).isFile())
    .sort();
}

describe("bundled graders trust only /tests", () => {
  it.each(tasks.map((t) => [t.name, t] as const))("%s", (_name, task) => {
    const env = join(task.paths.environment, "examples");
    const own = join(task.paths.tests, "examples");
    if (existsSync(env)) {
      // The copy under tests/ is what gets graded; it must be exactly what the agent was shown.
      expect(files(own)).toEqual(files(env));
      for (const f of files(env)) expect(readFileSync(join(own, f)), f).toEqual(readFileSync(join(env, f)));
    }
    const grader = readFileSync(join(task.paths.tests, "grade.py"), "utf8");
    const workdirUses = grader.split("\n").filter((l) => /\bWORK\b/.test(l) && !/^from lh import/.test(l));
    for (const line of workdirUses) {
      expect(line, `${relative(task.dir, join(task.paths.tests, "grade.py"))}`).toMatch(
        /os\.path\.join\(WORK, "[a-z_]+\.py"\)/,
      );
    }
  });

  it("does not let a program pass the public check by editing /app/examples", {
    timeout: 300_000,
  }, async () => {
    const src = tasks.find((t) => t.name === "log-digest");
    if (!src) throw new Error("log-digest missing");
    const dir = join(mkdtempSync(join(tmpdir(), "longhaul-test-trust-")), "log-digest");
    cpSync(src.dir, dir, { recursive: true });
    // A program that writes an empty digest, and examples edited to expect exactly that.
    writeFileSync(
      join(dir, "solution", "solve.sh"),
      `#!/bin/bash
cat > /app/logdigest.py <<'PY'
import sys
open(sys.argv[sys.argv.index("-o") + 1], "w").write("{}")
PY
for f in /app/examples/*/expected.json; do echo '{}' > "$f"; done
`,
    );
    const r = await runOneTrial({
      dir,
      agent: "oracle",
      seed: 3,
      jobId: "trust",
      trialId: "tampered",
      trialDir: join(dir, "..", "trial"),
      imagesDir: join(dir, "..", "images"),
    });
    expect(r.outcome).toBe("completed");
    expect(r.subtasks.find((s) => s.id === "public_examples")?.score).toBe(0);
    expect(r.reward).toBe(0);
  });
});
