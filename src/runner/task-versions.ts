import { UserError } from "../core/index.js";
import type { JobStore } from "../store/index.js";

/**
 * Refuses to go on with a job whose kept trials ran on another version of a task than the one
 * loaded now: the job's rates would average two different tasks, and nothing in a report would
 * say so. A task may change while none of its trials has a result (those that failed on the
 * infrastructure run again): the job then simply runs the new version.
 */
export async function refuseMixedTaskVersions(
  store: JobStore,
  jobId: string,
  tasks: readonly { name: string; checksum: string }[],
): Promise<void> {
  const now = new Map(tasks.map((t) => [t.name, t.checksum]));
  for (const v of await store.taskVersions(jobId)) {
    const current = now.get(v.task_name);
    if (current === undefined || current === v.task_checksum) continue;
    throw new UserError(
      `task ${v.task_name} changed since ${v.n} trial(s) of job ${jobId} ran on it (checksum ${v.task_checksum.slice(0, 12)} → ${current.slice(0, 12)}); resuming would mix results of the two versions: restore the task, or start a new job`,
    );
  }
}
