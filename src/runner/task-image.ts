import { join } from "node:path";
import { errorMessage, safeName } from "../core/index.js";
import { taskImage } from "../sandbox/image/build-image.js";
import type { ImageRef } from "../sandbox/image/types.js";
import { workdirProblem } from "../task/config.js";
import type { Task } from "../task/types.js";

/** What a task runs over: its image (null for a host task) and the task as trials see it. */
export type PreparedTask = { ok: true; task: Task; image: ImageRef | null } | { ok: false; error: string };

/**
 * Builds (or finds) a task's image and settles its workdir: the image's WORKDIR when it sets one,
 * else task.toml's. A failure is the task's, not the job's: every trial of it records the error.
 */
export async function prepareTask(
  task: Task,
  buildDir: string,
  onOutput?: (c: Buffer) => void,
): Promise<PreparedTask> {
  if (task.image === null) return { ok: true, task, image: null };
  let image: ImageRef | null;
  try {
    image = await taskImage({
      taskName: task.name,
      envDir: task.paths.environment,
      dockerImage: task.image.dockerImage,
      buildTimeoutSec: task.config.environment.build_timeout_sec,
      logFile: join(buildDir, `${safeName(task.name)}.build.log`),
      ...(onOutput ? { onOutput } : {}),
    });
  } catch (e) {
    return { ok: false, error: `task ${task.name}: image not available: ${errorMessage(e)}` };
  }
  if (image === null) return { ok: false, error: `task ${task.name}: no image was built for an image task` };
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
export function taskPreparer(buildDir: string): (task: Task) => Promise<PreparedTask> {
  const cache = new Map<string, Promise<PreparedTask>>();
  return (task) => {
    let p = cache.get(task.name);
    if (p === undefined) {
      p = prepareTask(task, buildDir);
      cache.set(task.name, p);
    }
    return p;
  };
}
