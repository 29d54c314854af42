import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  type Stats,
  statSync,
} from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import pLimit from "p-limit";
import { errorMessage, InputError, UserError } from "../core/errors.js";
import { readUserUtf8 } from "../core/user-files.js";
import { RUBRIC_FILE } from "../grading/rubric.js";
import { taskChecksum } from "./checksum.js";
import { parseTaskConfigWithWarnings } from "./config.js";
import { taskKindFor } from "./kinds.js";
import { loadTaskRubric } from "./rubric-file.js";
import { readTaskText } from "./task-file-text.js";
import type { Task } from "./types.js";

export const TASK_FILES = {
  config: "task.toml",
  instruction: "instruction.md",
  test: "tests/test.sh",
  solution: "solution/solve.sh",
} as const;

/** Tasks loaded at once; each already overlaps its own file reads. */
const LOAD_CONCURRENCY = 4;

/**
 * Every file a task cannot run without, beside task.toml. solution/solve.sh is not one: only the
 * oracle agent (and `task check`) needs it, and the oracle reports its absence per trial.
 */
const REQUIRED = [TASK_FILES.instruction, TASK_FILES.test] as const;

export const DOCKERFILE = "environment/Dockerfile";
/** Harbor's multi-container environment: merged into the trial's docker compose project there. */
const COMPOSE_FILE = "environment/docker-compose.yaml";

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
  const hasDockerfile = isFile(join(dir, DOCKERFILE));
  const { config, warnings } = parseTaskConfigWithWarnings(
    configShown,
    readUserUtf8(configShown),
    hasDockerfile,
  );

  const missing = REQUIRED.filter((f) => !isFile(join(dir, f)) && !isDirectory(join(dir, f)));
  if (missing.length > 0) {
    throw new UserError(`${dir}: missing ${missing.map((f) => join(dir, f)).join(", ")}`);
  }
  // A folder where a required file belongs is named as one, not reported missing.
  const folder = REQUIRED.find((f) => isDirectory(join(dir, f)));
  if (folder !== undefined) {
    throw new InputError(join(dir, folder), undefined, undefined, "is a folder, where a file is expected");
  }
  const abs = resolve(dir);
  const isImage = hasDockerfile || config.environment.docker_image !== null;
  const compose = join(dir, COMPOSE_FILE);
  if (existsSync(compose)) {
    // Harbor merges it into the trial's containers; longhaul runs one and never reads it.
    if (!isImage) {
      throw new InputError(
        compose,
        undefined,
        undefined,
        "defines the task's containers, and longhaul does not read compose files; give the task an environment/Dockerfile or [environment] docker_image",
      );
    }
    warnings.push(
      `${compose}: not applied: longhaul runs the task's image alone, without the services or settings this file adds in Harbor`,
    );
  }
  // An image task's environment/ is a docker build context, never copied into the sandbox.
  if (!isImage) checkEnvironment(join(dir, "environment"));
  if (hasDockerfile && config.environment.docker_image !== null) {
    warnings.push(
      `${configShown}: [environment] docker_image = "${config.environment.docker_image}" is used; ${join(dir, DOCKERFILE)} is not built (as in Harbor)`,
    );
  }
  warnings.push(...crlfWarnings(dir));
  const { rubric, warnings: rubricWarnings } = loadTaskRubric(
    join(abs, "tests"),
    join(dir, "tests", RUBRIC_FILE),
  );
  warnings.push(...rubricWarnings);
  const instructionShown = join(dir, TASK_FILES.instruction);
  const instruction = readTaskText(abs, TASK_FILES.instruction, instructionShown);
  warnings.push(...instructionWarnings(instruction, instructionShown));
  return {
    name: config.task.name ?? basename(abs),
    dir: abs,
    config,
    instruction,
    checksum: await taskChecksum(abs),
    rubric,
    paths: {
      environment: join(abs, "environment"),
      solution: join(abs, "solution"),
      tests: join(abs, "tests"),
      instruction: join(abs, TASK_FILES.instruction),
      config: join(abs, TASK_FILES.config),
    },
    image: isImage
      ? {
          dockerfile:
            hasDockerfile && config.environment.docker_image === null ? join(abs, DOCKERFILE) : null,
          dockerImage: config.environment.docker_image,
        }
      : null,
    warnings,
  };
}

/** A task folder that could not be loaded, and why (the error's message names file and field). */
export interface SkippedTask {
  path: string;
  reason: string;
  /** The load error itself (loadTasks rethrows it). */
  error: unknown;
}

/** The tasks that loaded and those skipped with their reasons. */
export interface TaskSet {
  tasks: Task[];
  skipped: SkippedTask[];
}

/**
 * Tasks from paths that are each a task folder or a dataset folder (whose subfolders holding a
 * task.toml are tasks). Sorted by name; two tasks with one name is an error, since results are
 * keyed by name. The first broken task is an error: see loadTaskSet to skip broken tasks.
 */
export async function loadTasks(paths: readonly string[]): Promise<Task[]> {
  const set = await loadTaskSet(paths);
  const first = set.skipped[0];
  if (first !== undefined) throw first.error;
  return set.tasks;
}

/**
 * loadTasks for datasets: a task that fails to load is skipped (with its reason) and the rest
 * load, so one broken task does not stop a run of hundreds. Paths that are not task or dataset
 * folders, and two tasks with one name, are still errors: they are mistakes in the command.
 */
export async function loadTaskSet(paths: readonly string[]): Promise<TaskSet> {
  const dirs: string[] = [];
  const other: Task[] = [];
  const otherSkipped: SkippedTask[] = [];
  for (const p of paths) {
    // Tasks of a registered kind (a world task file, a folder of them) are loaded by that kind.
    const kind = isTaskDir(p) ? undefined : taskKindFor(p);
    if (kind !== undefined) {
      try {
        other.push(...(await kind.load(p)));
      } catch (e) {
        otherSkipped.push({ path: resolve(p), reason: errorMessage(e), error: e });
      }
      continue;
    }
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
  const tasks: Task[] = [...other];
  const skipped: SkippedTask[] = [...otherSkipped];
  settled.forEach((s, i) => {
    // In path order, so the report does not depend on timing.
    if (s.status === "fulfilled") tasks.push(s.value);
    else skipped.push({ path: resolve(unique[i] ?? ""), reason: errorMessage(s.reason), error: s.reason });
  });
  const byName = new Map<string, Task>();
  for (const t of tasks) {
    const other = byName.get(t.name);
    if (other !== undefined) {
      throw new UserError(`two tasks are named "${t.name}": ${other.dir} and ${t.dir}`);
    }
    byName.set(t.name, t);
  }
  return { tasks: tasks.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), skipped };
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

/**
 * The largest instruction.md that loads without a warning. The whole file is the agent's task
 * statement, sent to its model in the first prompt: 1 MiB is some 250,000 tokens, past the context
 * window of most models, while a real instruction is a few KiB. A file this large is far more
 * likely data saved under the wrong name than an instruction.
 */
export const INSTRUCTION_WARN_BYTES = 1024 * 1024;

/**
 * An empty instruction, or one too large to be one, is most likely a mistake of the task's
 * author; it is a warning, not an error, so that a task written for Harbor (which accepts both)
 * still loads and runs as it would there.
 */
function instructionWarnings(text: string, shown: string): string[] {
  if (text.trim() === "")
    return [
      `${shown}: is empty${text === "" ? "" : " (only whitespace)"}: the agent is given no instruction`,
    ];
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= INSTRUCTION_WARN_BYTES) return [];
  const mib = (bytes / (1024 * 1024)).toFixed(1);
  return [
    `${shown}: is ${mib} MiB, more than 1 MiB (some 250,000 tokens): the agent's model is sent all of it in its first prompt; is it the instruction?`,
  ];
}

/** The scripts bash runs: tests/test.sh, and solve.sh and partial.sh for the oracle and partial agents. */
const SCRIPTS = [TASK_FILES.test, TASK_FILES.solution, "solution/partial.sh"] as const;

/**
 * A script saved with Windows line endings fails under bash (`$'\r': command not found`, or a
 * syntax error at its end) on Linux, in Harbor as here: said at load, before any trial fails.
 */
function crlfWarnings(dir: string): string[] {
  return SCRIPTS.filter((rel) => {
    const path = join(dir, rel);
    if (!isFile(path)) return false;
    const fd = openSync(path, "r");
    try {
      const head = Buffer.alloc(64 * 1024);
      return head.subarray(0, readSync(fd, head)).includes("\r\n");
    } finally {
      closeSync(fd);
    }
  }).map(
    (rel) =>
      `${join(dir, rel)}: has Windows line endings (CRLF), which bash does not read; convert it to LF (e.g. dos2unix)`,
  );
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
