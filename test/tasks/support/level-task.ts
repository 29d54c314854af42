import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadTask } from "../../../src/task/index.js";
import type { Task } from "../../../src/task/types.js";

const TOML = `version = "1.0"
[metadata]
category = "fixtures"
difficulty = "easy"
expert_time_estimate_min = 1
[agent]
timeout_sec = 30
[verifier]
timeout_sec = 30
[environment]
memory_mb = 512
`;

const RUBRIC = `[[subtask]]
id = "public_check"
weight = 1
kind = "binary"
visibility = "public"
description = "public"

[[subtask]]
id = "hidden_work"
weight = 4
kind = "continuous"
visibility = "hidden"
description = "hidden"
`;

/** Scripts of a level task beside the oracle's (`echo 1 > /app/level`), by path under solution/. */
export type SolutionScripts = Readonly<Record<string, string>>;

/**
 * A tiny task for `task check` tests: "write 1 to /app/level". Subtasks `public_check` (weight 1)
 * and `hidden_work` (weight 4); `verifier` is tests/test.sh's body; `scripts` adds solution files
 * (partial.sh, mutants/NAME.sh) next to solve.sh.
 */
export async function levelTask(
  prefix: string,
  name: string,
  verifier: string,
  scripts: SolutionScripts,
): Promise<Task> {
  const dir = join(mkdtempSync(join(tmpdir(), `longhaul-test-${prefix}-`)), name);
  for (const sub of ["environment", "solution/mutants", "tests"])
    mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, "task.toml"), TOML);
  writeFileSync(join(dir, "instruction.md"), "Write 1 to /app/level.\n");
  writeFileSync(join(dir, "environment", ".keep"), "");
  writeFileSync(join(dir, "solution", "solve.sh"), "#!/bin/bash\necho 1 > /app/level\n");
  for (const [path, text] of Object.entries(scripts)) writeFileSync(join(dir, "solution", path), text);
  writeFileSync(join(dir, "tests", "rubric.toml"), RUBRIC);
  writeFileSync(join(dir, "tests", "test.sh"), `#!/bin/bash\n${verifier}\n`);
  return loadTask(dir);
}
