import { existsSync, lstatSync, readdirSync, type Stats, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import pLimit from "p-limit";
import { InputError, UserError } from "../core/errors.js";
import { loadRubric, RUBRIC_FILE } from "../grading/rubric.js";
import { taskChecksum } from "./checksum.js";
import { parseTaskConfig } from "./config.js";
import type { Task } from "./types.js";

export const TASK_FILES = {
  config: "task.toml",
  instruction: "instruction.md",
  test: "tests/test.sh",
  solution: "solution/solve.sh",
} as const;

/** Tasks loaded at once; each already overlaps its own file reads. */
const LOAD_CONCURRENCY = 4;

/** Every file a task cannot run without, beside task.toml. */
const REQUIRED = [TASK_FILES.instruction, TASK_FILES.test, TASK_FILES.solution] as const;

export function isTaskDir(dir: string): boolean {
  return existsSync(join(dir, TASK_FILES.config));
}

/**
 * Load and validate one Harbor task folder. `dir` is used as given in messages (so a relative
 * path stays relative); `Task.dir` is absolute.
 */
export async function loadTask(dir: string): Promise<Task> {
  if (!isDirectory(dir)) throw new UserError(`${dir}: no such task folder`);
  const configShown = join(dir, TASK_FILES.config);
  if (!isTaskDir(dir)) throw new InputError(configShown, undefined, undefined, "missing (not a task folder)");
  const config = parseTaskConfig(configShown, await readFile(join(dir, TASK_FILES.config), "utf8"));

  const missing = REQUIRED.filter((f) => !isFile(join(dir, f)));
  if (missing.length > 0) {
    throw new UserError(`${dir}: missing ${missing.map((f) => join(dir, f)).join(", ")}`);
  }
  checkEnvironment(join(dir, "environment"));
  const abs = resolve(dir);
  const rubric = loadRubric(join(abs, "tests"), join(dir, "tests", RUBRIC_FILE));
  return {
    name: config.task.name ?? basename(abs),
    dir: abs,
    config,
    instruction: await readFile(join(abs, TASK_FILES.instruction), "utf8"),
    checksum: await taskChecksum(abs),
    rubric,
    paths: {
      environment: join(abs, "environment"),
      solution: join(abs, "solution"),
      tests: join(abs, "tests"),
      instruction: join(abs, TASK_FILES.instruction),
      config: join(abs, TASK_FILES.config),
    },
  };
}

/**
 * Tasks from paths that are each a task folder or a dataset folder (whose subfolders holding a
 * task.toml are tasks). Sorted by name; two tasks with one name is an error, since results are
 * keyed by name.
 */
export async function loadTasks(paths: readonly string[]): Promise<Task[]> {
  const dirs: string[] = [];
  for (const p of paths) {
    if (!isDirectory(p)) throw new UserError(`${p}: no such task or dataset folder`);
    if (isTaskDir(p)) {
      dirs.push(p);
      continue;
    }
    const children = (await readdir(p, { withFileTypes: true }))
      .filter((d) => !d.name.startsWith(".") && isDirectory(join(p, d.name)))
      .map((d) => join(p, d.name))
      .filter(isTaskDir)
      .sort();
    if (children.length === 0) {
      throw new UserError(`${p}: neither a task folder (no task.toml) nor a dataset of task folders`);
    }
    dirs.push(...children);
  }
  // The same folder reached twice (as itself and inside its dataset) is one task, not a clash.
  const unique = [...new Map(dirs.map((d) => [resolve(d), d])).values()];
  const limit = pLimit(LOAD_CONCURRENCY);
  const settled = await Promise.allSettled(unique.map((d) => limit(() => loadTask(d))));
  const tasks: Task[] = [];
  for (const s of settled) {
    // The first broken task in path order, so the message does not depend on timing.
    if (s.status === "rejected") throw s.reason;
    tasks.push(s.value);
  }
  const byName = new Map<string, Task>();
  for (const t of tasks) {
    const other = byName.get(t.name);
    if (other !== undefined) {
      throw new UserError(`two tasks are named "${t.name}": ${other.dir} and ${t.dir}`);
    }
    byName.set(t.name, t);
  }
  return tasks.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * environment/ is copied into the sandbox's workdir at every trial start, so anything that copy
 * cannot take is refused here, before a job exists, rather than failing every trial.
 */
function checkEnvironment(envDir: string): void {
  let st: Stats;
  try {
    st = lstatSync(envDir);
  } catch {
    return; // No environment/: the workdir starts empty.
  }
  if (st.isSymbolicLink()) {
    throw new InputError(envDir, undefined, undefined, "must be a folder, not a symbolic link");
  }
  if (!st.isDirectory()) {
    throw new InputError(
      envDir,
      undefined,
      undefined,
      "must be a folder (copied into the workdir), not a file",
    );
  }
  const pending = [envDir];
  for (let d = pending.pop(); d !== undefined; d = pending.pop()) {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) pending.push(p);
      else if (!e.isFile() && !e.isSymbolicLink()) {
        throw new InputError(
          p,
          undefined,
          undefined,
          "cannot be copied into the sandbox (not a file, folder or link)",
        );
      }
    }
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
