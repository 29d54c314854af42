import { rmSync } from "node:fs";
import type { Job } from "bullmq";
import { errorMessage, type TrialResult, trialResultSchema } from "../core/index.js";
import { infraFailure } from "../runner/run-planned-trial.js";
import type { PlannedTrial } from "../runner/trial-plan.js";
import type { JobConfig } from "../store/index.js";
import type { Task } from "../task/types.js";
import type { CoordinatorRun } from "./coordinator-run.js";
import { unpackTo } from "./pack.js";
import { foreignField } from "./queue-jobs.js";
import { orStop, Stopped } from "./stoppable-wait.js";
import { trialReturnSchema } from "./trial-job.js";
import { MAX_STALLED } from "./worker.js";

/**
 * Entries a worker's trial folder may hold: its two log copies keep at most 10,000 each (see
 * LOG_COPY_LIMITS), so a pack far past that was not made by a trial, and would flood the host.
 */
export const RESULT_MAX_ENTRIES = 100_000;

/**
 * Records a finished queue job's trial exactly once, with its folder when the worker sent one
 * that fits, then removes it from Redis. A trial the store already holds is discarded with a
 * line; another run's trial under this id is sent again as planned (once). False when the job
 * is not this coordinator's to touch: another job's, or the lease is no longer surely held.
 */
export async function collectTrial(run: CoordinatorRun, job: Job): Promise<boolean> {
  const { store, config, blobs, log, stop, held } = run;
  // Not surely ours any more: another coordinator may take the job and collect this trial.
  if (!held()) return false;
  const id = job.id ?? "";
  const trialId = id.slice(run.prefix.length);
  const planned = run.byTrial.get(trialId);
  const task = planned ? run.tasksByName.get(planned.taskName) : undefined;
  const ret = trialReturnSchema.safeParse(job.returnvalue);
  const artifacts = ret.success ? ret.data.artifacts : null;
  const note = ret.success ? ret.data.artifacts_note : undefined;
  // Not a trial of this job (another job whose name starts like this one's): not ours to touch.
  if (planned === undefined || task === undefined) return false;
  if (run.done.has(trialId)) {
    log(`late result for trial ${trialId} of job ${config.job_id} discarded: already recorded`);
  } else {
    const completed = await orStop(job.isCompleted(), stop);
    const raw = completed && ret.success ? ret.data.result : undefined;
    const foreign =
      foreignField(job.data, config, task, planned) ??
      (raw === undefined ? null : foreignField(raw, config, task, planned));
    if (foreign !== null && !run.requeued.has(trialId)) {
      // Another run's trial under this id (an older job of the same name, a changed task):
      // it is no result of this job, so the trial runs again as planned now.
      run.requeued.add(trialId);
      log(`trial ${trialId}: the queue held another run's trial (${foreign}); it runs again`);
      await orStop(job.remove(), stop);
      if (artifacts !== null) await orStop(blobs.delete(artifacts), stop);
      await run.enqueueAgain([planned]);
      return true;
    }
    const result =
      foreign !== null
        ? infraFailure(
            config,
            task,
            planned,
            `the queue returned another run's trial twice (${foreign})`,
            "queue",
          )
        : resultOf(job, raw, completed, config, task, planned);
    const dir = store.trialDir(config.job_id, trialId);
    const bytes =
      artifacts !== null && result.outcome !== "infra_error"
        ? await orStop(blobs.get(artifacts, run.maxResultBytes), stop).catch((e: unknown) => {
            if (e instanceof Stopped) throw e;
            log(`trial ${trialId}: artifacts not kept (${errorMessage(e)}); result recorded`);
            return null;
          })
        : null;
    // Checked again after the waits above, just before the trial is written.
    if (!held()) return false;
    rmSync(dir, { recursive: true, force: true });
    if (bytes !== null) {
      try {
        unpackTo(bytes, dir, { maxEntries: RESULT_MAX_ENTRIES, links: false });
      } catch (e) {
        log(`trial ${trialId}: artifacts not kept (${errorMessage(e)}); result recorded`);
        rmSync(dir, { recursive: true, force: true });
      }
    }
    if (artifacts === null && note !== undefined && result.outcome !== "infra_error")
      log(`trial ${trialId}: artifacts not kept (the worker sent none: ${note}); result recorded`);
    await run.record(result, trialId);
  }
  // Only now, with the trial on disk and indexed, does Redis forget it.
  await orStop(job.remove(), stop).catch((e: unknown) => {
    if (e instanceof Stopped) throw e;
  });
  if (artifacts !== null) await orStop(blobs.delete(artifacts), stop);
  return true;
}

/** The recorded result of a finished queue job; a failed one becomes an infra_error like a local run's. */
function resultOf(
  job: Job,
  raw: unknown,
  completed: boolean,
  config: JobConfig,
  task: Task,
  planned: PlannedTrial,
): TrialResult {
  const path = config.tasks.find((t) => t.name === task.name)?.path ?? task.dir;
  if (completed && raw !== undefined) {
    const parsed = trialResultSchema.safeParse(raw);
    // foreignField has compared the trial's fields with the plan already.
    if (parsed.success) return { ...parsed.data, task: { ...parsed.data.task, path } };
    return infraFailure(config, task, planned, "the worker returned a result that is not this trial's");
  }
  const why = job.failedReason || "failed on the queue";
  const stalled = /stalled more than allowable limit/.test(why);
  return infraFailure(
    config,
    task,
    planned,
    stalled ? `its worker stopped answering ${MAX_STALLED + 1} times: ${why}` : why,
    "queue",
  );
}
