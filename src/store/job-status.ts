import { join } from "node:path";
import { checkJobName } from "../core/index.js";
import { jobLockHeld } from "./job-lock.js";

/**
 * The status a job is shown with. A runner records its job `running` when it starts and
 * `finished` or `interrupted` when it ends; one that is killed (kill -9, a crash, the machine
 * going down) never records its end, and the record alone would say `running` for good. The job's
 * run lock tells the difference: the kernel drops it with its process, so a job recorded running
 * whose lock is free has no runner left and is shown `interrupted` (`run --resume` goes on with
 * it). A free lock is followed by a second look at the record: a runner records the job's end
 * before it releases the lock, so a job that has just finished is not taken for a dead one.
 */
export async function liveJobStatus(
  jobsDir: string,
  jobId: string,
  recorded: string,
  recordedNow: () => Promise<string | undefined>,
): Promise<string> {
  if (recorded !== "running") return recorded;
  let dir: string;
  try {
    dir = join(jobsDir, checkJobName(jobId));
  } catch {
    // An index row of a name no job folder can have: there is no lock to ask.
    return recorded;
  }
  if (jobLockHeld(dir)) return recorded;
  const now = await recordedNow();
  return now === undefined || now === "running" ? "interrupted" : now;
}
