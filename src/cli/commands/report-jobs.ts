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
  const planned = new Set(planTrials(store.loadJobConfig(jobId)).map((t) => t.trialId));
  const recorded = new Set(trials.map((t) => t.trial_id).filter((id) => planned.has(id))).size;
  const status = (await store.jobStatus(jobId)) ?? "unknown";
  return {
    id: jobId,
    status,
    planned: planned.size,
    recorded,
    missing: planned.size - recorded,
    resume: status === "interrupted" ? resumeCommand(jobId, store.jobsDir) : null,
  };
}

/** The command that goes on with an interrupted job (as the viewer shows it). */
export function resumeCommand(jobId: string, jobsDir: string): string {
  return `longhaul run --resume --job ${shellWord(jobId)} --jobs-dir ${shellWord(jobsDir)}`;
}

/** A word as the shell reads it: quoted when it holds anything but plain characters. */
function shellWord(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}
