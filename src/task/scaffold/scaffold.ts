import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { checkOutFolder, UserError } from "../../core/index.js";
import { readKit } from "../verifier-kit.js";
import { CATEGORIES, isCategory } from "./categories.js";
import {
  EXAMPLE_CSV,
  GRADE_PY,
  INSTRUCTION,
  PARTIAL_SH,
  RUBRIC,
  SOLVE_SH,
  TEST_SH,
  taskToml,
} from "./templates.js";

/** Creates a task folder that passes `longhaul task check` as generated. Returns its path. */
export function scaffoldTask(path: string, category = "software-engineering"): string {
  const dir = resolve(path);
  const name = basename(dir);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) {
    throw new UserError(`task name "${name}" must be lowercase letters, digits and dashes`);
  }
  if (!isCategory(category)) {
    throw new UserError(`unknown category "${category}"; one of: ${CATEGORIES.join(", ")}`);
  }
  if (existsSync(dir)) throw new UserError(`${path} already exists; choose a new folder`);
  // A file where a parent folder belongs is named before anything is written.
  checkOutFolder(dir, "task new");
  const files: [string, string, boolean][] = [
    ["task.toml", taskToml(name, category), false],
    ["instruction.md", INSTRUCTION, false],
    ["environment/data/example.csv", EXAMPLE_CSV, false],
    ["solution/solve.sh", SOLVE_SH, true],
    ["solution/partial.sh", PARTIAL_SH, true],
    ["tests/test.sh", TEST_SH, true],
    ["tests/rubric.toml", RUBRIC, false],
    ["tests/grade.py", GRADE_PY, false],
    // The verifier kit, byte for byte: the task runs under plain Harbor with nothing mounted.
    ["tests/lh.py", readKit().text, false],
  ];
  for (const [rel, content, executable] of files) {
    const file = join(dir, rel);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, content);
    if (executable) chmodSync(file, 0o755);
  }
  return dir;
}
