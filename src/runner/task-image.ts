import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { errorMessage, safeName } from "../core/index.js";
import { resolveTaskImage, type TaskImageOptions } from "../sandbox/image/build-image.js";
import type { ImageRef } from "../sandbox/image/types.js";
import { workdirProblem } from "../task/config.js";
import type { Task } from "../task/types.js";

/** resolveTaskImage's options for a task: its docker_image when set, else its Dockerfile. */
export function imageOptions(task: Task, logFile: string): TaskImageOptions {
  return {
    taskName: task.name,
    envDir: task.paths.environment,
    dockerImage: task.image?.dockerImage ?? null,
    buildTimeoutSec: task.config.environment.build_timeout_sec,
    logFile,
  };
}

/** What a task runs over: its image (null for a host task) and the task as trials see it. */
export type PreparedTask = { ok: true; task: Task; image: ImageRef | null } | { ok: false; error: string };

/**
 * Builds (or finds) a task's image and settles its workdir: the image's WORKDIR when it sets one,
 * else task.toml's. A failure is the task's, not the job's: every trial of it records the error.
 */
export async function prepareTask(
  task: Task,
  buildDir: string,
  note?: (line: string) => void,
): Promise<PreparedTask> {
  if (task.image === null) return { ok: true, task, image: null };
  let image: ImageRef | null;
  const logFile = join(buildDir, `${safeName(task.name)}.build.log`);
  try {
    const r = await resolveTaskImage(imageOptions(task, logFile));
    image = r?.image ?? null;
    if (r !== null) {
      const what = `image ${r.image.tag ?? r.image.id} (${r.image.id.slice(7, 19)}) ${r.source}`;
      // A reused image leaves a line too, so every image task of a job says what it ran over.
      if (r.source !== "built") {
        mkdirSync(dirname(logFile), { recursive: true });
        appendFileSync(logFile, `${what}: no build needed\n`);
      }
      note?.(`image  ${task.name}: ${what}${r.source === "built" ? ` in ${r.seconds.toFixed(1)} s` : ""}`);
    }
  } catch (e) {
    return { ok: false, error: `task ${task.name}: image not available: ${errorMessage(e)}` };
  }
  if (image === null) return { ok: false, error: `task ${task.name}: no image was built for an image task` };
  return overImage(task, image);
}

/**
 * A task run over an image already resolved for a task with the same environment/ (so the same
 * image): its workdir settled as prepareTask settles it, without asking the daemon again.
 */
export function overImage(task: Task, image: ImageRef): PreparedTask {
  const workdir = image.config.workdir ?? task.config.environment.workdir;
  const problem = workdirProblem(workdir, true);
  if (problem !== null) {
    return {
      ok: false,
      error: `task ${task.name}: the image's WORKDIR ${JSON.stringify(workdir)} ${problem}`,
    };
  }
  return { ok: true, image, task: withWorkdir(task, workdir) };
}

function withWorkdir(task: Task, workdir: string): Task {
  if (workdir === task.config.environment.workdir) return task;
  return {
    ...task,
    config: { ...task.config, environment: { ...task.config.environment, workdir } },
  };
}

/** One preparation per task per job, started on first use and shared by every trial of the task. */
export function taskPreparer(
  buildDir: string,
  note?: (line: string) => void,
): (task: Task) => Promise<PreparedTask> {
  const cache = new Map<string, Promise<PreparedTask>>();
  return (task) => {
    let p = cache.get(task.name);
    if (p === undefined) {
      p = prepareTask(task, buildDir, note);
      cache.set(task.name, p);
    }
    return p;
  };
}
