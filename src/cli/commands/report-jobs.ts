import type { ReportedJob } from "../../analysis/index.js";
import { planTrials } from "../../runner/trial-plan.js";
import type { JobStore } from "../../store/index.js";

/**
 * How a job a report reads stands: its status as the store shows it (a job whose runner was
 * killed shows `interrupted`), and how many of its planned trials have a result.
 */
export async function reportedJob(
  store: JobStore,
  jobId: string,
  trials: readonly { trial_id: string }[],
): Promise<ReportedJob> {
  const config = store.loadJobConfig(jobId);
  const planned = new Set(planTrials(config).map((t) => t.trialId));
  const recorded = new Set(trials.map((t) => t.trial_id).filter((id) => planned.has(id))).size;
  const status = (await store.jobStatus(jobId)) ?? "unknown";
  return {
    id: jobId,
    status,
    planned: planned.size,
    recorded,
    missing: planned.size - recorded,
    resume: status === "interrupted" ? resumeCommand(jobId, store.jobsDir, config.queue_url) : null,
  };
}

/**
 * The command that goes on with an interrupted job (as the viewer shows it). A job run on a
 * queue names it, as its config.json records it: with the password masked (`***`), which the
 * user puts back, since a password is never written to the job's files nor printed.
 */
export function resumeCommand(jobId: string, jobsDir: string, queueUrl?: string): string {
  const queue = queueUrl === undefined ? "" : ` --queue ${shellWord(queueUrl)}`;
  return `longhaul run --resume --job ${shellWord(jobId)} --jobs-dir ${shellWord(jobsDir)}${queue}`;
}

/**
 * A word as the shell reads it: quoted when it holds anything but characters no shell treats
 * specially (`:` and `@` included, so a plain queue URL is shown as typed).
 */
function shellWord(s: string): string {
  return /^[\w./:@+,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}
