import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  findSharedCode,
  normalise,
  SHARED_WINDOW,
  sharedCodeCheck,
} from "../../src/runner/check-shared-code.js";
import { bundledTasksDir } from "../../src/runner/package-root.js";
import { loadTask } from "../../src/task/index.js";
import type { Task } from "../../src/task/types.js";
import { levelTask } from "./support/level-task.js";

/** A task folder's files by path: only tests/ and solution/ matter to the check. */
function folder(files: Readonly<Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), "longhaul-test-shared-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const shared = (root: string) => findSharedCode(join(root, "tests"), join(root, "solution"), root);

/** Nine meaningful lines of an allocation loop: long enough to count once copied. */
const ALLOCATE = `def allocate(payments, invoices):
    for p in sorted(payments, key=lambda p: (p["date"], p["id"])):
        rem = p["amount"]
        for i in sorted(invoices, key=lambda i: (i["due"], i["id"])):
            need = i["open"]
            if rem >= need:
                i["open"] = 0
                rem -= need
    return invoices
`;

/** The harness every grader has: imports, argv, a CSV writer, the entry point. */
const HARNESS = `#!/usr/bin/env python3
import csv, json, os, sys
from decimal import Decimal


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\\n")
        w.writerows(rows)


if __name__ == "__main__":
    main()
`;

describe("shared-code check", () => {
  it("finds a block copied into a grader, re-indented and re-commented, with both files and line ranges", () => {
    const copy = ALLOCATE.split("\n")
      .map((l) => `    ${l}  # copied`.trimEnd())
      .join("\n");
    const root = folder({
      "solution/reconcile.py": `import sys\n\n\n${ALLOCATE}\nprint(allocate([], []))\n`,
      "tests/grade.py": `"""Grader."""\nimport sys\n\n\nclass Ref:\n${copy}\n`,
    });
    const blocks = shared(root);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({
      tests: { path: "tests/grade.py", from: 6, to: 14 },
      solution: { path: "solution/reconcile.py", from: 4, to: 12 },
      lines: 9,
    });
  });

  it("finds a block that a mutant script carries inside a heredoc", () => {
    const root = folder({
      "solution/solve.sh": "#!/bin/bash\ncp /solution/x.py /app/x.py\n",
      "solution/mutants/wrong.sh": `#!/bin/bash\nset -euo pipefail\ncat > /app/x.py <<'PY'\n${ALLOCATE}PY\n`,
      "tests/ref.py": ALLOCATE,
    });
    expect(shared(root).map((b) => [b.tests.path, b.solution.path, b.solution.from])).toEqual([
      ["tests/ref.py", "solution/mutants/wrong.sh", 4],
    ]);
  });

  it("follows links once: a link back up the tree neither loops nor brings solution/ in", () => {
    const root = folder({ "solution/alloc.py": ALLOCATE, "tests/grade.py": "print(1)\n" });
    symlinkSync("..", join(root, "tests", "up"));
    symlinkSync(".", join(root, "tests", "self"));
    symlinkSync("up/up", join(root, "tests", "loop"));
    expect(shared(root)).toEqual([]);
    // A file linked in from solution/ is still a copy.
    symlinkSync("../solution/alloc.py", join(root, "tests", "ref.py"));
    expect(shared(root).map((b) => [b.tests.path, b.solution.path])).toEqual([
      ["tests/ref.py", "solution/alloc.py"],
    ]);
  });

  it("fails the task check with a detail naming both files and lines", async () => {
    const task: Task = await levelTask("shared", "copied", "echo 1", { "alloc.py": ALLOCATE });
    writeFileSync(join(task.paths.tests, "ref.py"), ALLOCATE);
    expect(sharedCodeCheck(task)).toEqual({
      name: "tests/ shares no code with solution/",
      ok: false,
      detail: "tests/ref.py:1-9 repeats solution/alloc.py:1-9 (9 lines)",
    });
  });

  it("leaves a scaled child's channel kit (tests/res/, solution/res/) out, and only a scaled child's", async () => {
    const task: Task = await levelTask("shared", "scaled", "echo 1", { "alloc.py": "print(1)\n" });
    for (const side of [task.paths.tests, task.paths.solution]) {
      mkdirSync(join(side, "res"), { recursive: true });
      writeFileSync(join(side, "res", "res_channel.py"), ALLOCATE);
    }
    const root = join(task.paths.tests, "..");
    // Not a scaled child (no res.json): the two res/ folders are compared like any files.
    expect(sharedCodeCheck(task).ok).toBe(false);
    writeFileSync(join(root, "res.json"), "{}");
    expect(sharedCodeCheck(task)).toMatchObject({ ok: true });
    // The parent's own files beside the kit still count.
    writeFileSync(join(task.paths.tests, "ref.py"), ALLOCATE);
    writeFileSync(join(task.paths.solution, "alloc.py"), ALLOCATE);
    expect(sharedCodeCheck(task)).toMatchObject({
      ok: false,
      detail: "tests/ref.py:1-9 repeats solution/alloc.py:1-9 (9 lines)",
    });
  });

  it("does not flag a copy with every identifier renamed (exact matching, documented)", () => {
    const renamed = ALLOCATE.replaceAll("rem", "left")
      .replaceAll("need", "due_now")
      .replaceAll('"open"', '"bal"');
    const root = folder({ "solution/a.py": ALLOCATE, "tests/b.py": renamed });
    expect(shared(root)).toEqual([]);
  });

  it("does not flag boilerplate: imports, the CSV writer, the entry point, brackets, one-word lines", () => {
    const root = folder({
      "solution/a.py": `${HARNESS}\n\ndef main():\n    pass\n`,
      "tests/grade.py": `${HARNESS}\n\ndef main():\n    return\n`,
      "tests/test.sh":
        "#!/bin/bash\nset -euo pipefail\nmkdir -p /logs/verifier\npython3 -I /tests/grade.py\n",
      "solution/solve.sh": "#!/bin/bash\nset -euo pipefail\ncp /solution/a.py /app/a.py\n",
    });
    expect(shared(root)).toEqual([]);
  });

  it("leaves data files out: the same CSV under tests/ and solution/ is not code", () => {
    const rows = Array.from(
      { length: 20 },
      (_, i) => `2026-01-${String(i + 1).padStart(2, "0")},USD,0.92${i}`,
    );
    const root = folder({ "solution/fx.csv": rows.join("\n"), "tests/examples/fx.csv": rows.join("\n") });
    expect(shared(root)).toEqual([]);
  });

  it("normalises comments, docstrings, white space and trivial lines away", () => {
    const lines = normalise(
      '"""Doc\nstring."""\nimport os\nx = 1  # one\ny = "#not a comment"\n}\nelse:\n',
      false,
    );
    expect(lines).toEqual([
      { text: "x=1", line: 4 },
      { text: 'y="#notacomment"', line: 5 },
    ]);
    expect(normalise("/* block\n comment */\nint x = 1; // one\n", true)).toEqual([
      { text: "intx=1;", line: 3 },
    ]);
  });

  it(`passes the bundled tasks whose graders are independent (window ${SHARED_WINDOW})`, async () => {
    const independent = [
      "blob-count",
      "grid-puzzle-solver",
      "invoice-reconcile",
      "lander-pilot",
      "log-digest",
      "metric-table-repro",
      "orbit-propagate",
      "perm-audit",
      "ridge-cv-repro",
      "station-qc",
    ];
    for (const name of independent) {
      const task = await loadTask(join(bundledTasksDir(), name));
      expect(sharedCodeCheck(task), name).toMatchObject({ ok: true });
    }
  });
});
