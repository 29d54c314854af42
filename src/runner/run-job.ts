import { setMaxListeners } from "node:events";
import { join } from "node:path";
import pLimit from "p-limit";
import { type TrialResult, UserError } from "../core/index.js";
import { sweepStaleSandboxes } from "../sandbox/sweep.js";
import type { SandboxProvider } from "../sandbox/types.js";
import type { JobConfig, JobStore } from "../store/index.js";
import type { SkippedTask } from "../task/load.js";
import type { Task } from "../task/types.js";
import { type ProgressSink, silentProgress } from "./progress.js";
import { infraFailure, runPlannedTrial } from "./run-planned-trial.js";
import { type PreparedTask, taskPreparer } from "./task-image.js";
import { refuseMixedTaskVersions } from "./task-versions.js";
import { sweepStaleGatewayDirs } from "./trial-gateway.js";
import { type PlannedTrial, planTrials } from "./trial-plan.js";

/** What runJob needs: the store, the job's config, its loaded tasks and a sandbox provider. */
export interface RunJobOptions {
  store: JobStore;
  config: JobConfig;
  tasks: Task[];
  provider: SandboxProvider;
  /** Continue an existing job: finished trials are kept, the rest run. */
  resume: boolean;
  progress?: ProgressSink;
  /** Abort to stop the job (Ctrl-C, SIGTERM); running trials are abandoned and re-run on resume. */
  signal?: AbortSignal;
  /** Tasks of the job that failed to load (on --resume): their trials are not run. */
  skipped?: SkippedTask[];
}

/** What a job run returns: every trial of the job (earlier runs' too, on resume) and what could not run. */
export interface JobOutcome {
  jobId: string;
  trials: TrialResult[];
  interrupted: boolean;
  ranThisTime: number;
  /** Tasks whose image could not be built or found: every trial of theirs records this error. */
  failedImages: { task: string; error: string }[];
}

/** Images built at once: builds are heavy, and trials wait for them anyway. */
const BUILD_CONCURRENCY = 2;

/** Runs every pending trial of a job (all of them for a new job), records each in the store, and returns the job's trials. Trials of one job run `config.concurrency` at once; task images are built first. */
export async function runJob(o: RunJobOptions): Promise<JobOutcome> {
  const { store, config } = o;
  const progress = o.progress ?? silentProgress;
  const signal = o.signal ?? new AbortController().signal;
  // Each running trial listens on the job's signal (its agent phase and its current exec): at
  // -n 6 and more that passes Node's default of 10 and prints a false "memory leak" warning.
  setMaxListeners(Math.max(10, 4 * config.concurrency + 10), signal);
  const tasksByName = new Map(o.tasks.map((t) => [t.name, t]));
  const skippedPaths = new Set((o.skipped ?? []).map((s) => s.path));
  for (const t of config.tasks) {
    if (!tasksByName.has(t.name) && !skippedPaths.has(t.path))
      throw new UserError(`task ${t.name} of job ${config.job_id} is not available`);
  }

  // Planning refuses clashing trial ids, so it comes before anything is written.
  const plan = planTrials(config);
  // Sandbox state left by runners that were killed would otherwise pile up in the temp folder.
  await sweepStaleSandboxes();
  sweepStaleGatewayDirs();
  const lock = store.lockJob(config.job_id);
  try {
    if (o.resume) await store.ensureJobRow(config);
    else await store.createJob(config);
    try {
      return await runPlanned(o, plan, progress, signal);
    } catch (e) {
      // A live status line's timer would keep the process alive, redrawing, after the error.
      progress.stop();
      // A job that stopped on an error is not running any more; finished trials stay recorded.
      await store.setJobStatus(config.job_id, "interrupted").catch(() => undefined);
      throw e;
    }
  } finally {
    lock.release();
  }
}

async function runPlanned(
  o: RunJobOptions,
  plan: PlannedTrial[],
  progress: ProgressSink,
  signal: AbortSignal,
): Promise<JobOutcome> {
  const { store, config } = o;
  const tasksByName = new Map(o.tasks.map((t) => [t.name, t]));
  const done = await store.reconcile(config.job_id, new Set(plan.map((t) => t.trialId)));
  await refuseMixedTaskVersions(store, config.job_id, o.tasks);
  const pending = plan.filter((t) => !done.has(t.trialId) && tasksByName.has(t.taskName));
  progress.start(plan.length, plan.length - pending.length);

  // Every image the pending trials need, once per task, before any trial starts.
  const prepare = taskPreparer(join(store.jobDir(config.job_id), "images"), (l) => progress.note?.(l));
  const prepared = new Map<string, PreparedTask>();
  const buildLimit = pLimit(BUILD_CONCURRENCY);
  await Promise.all(
    [...new Set(pending.map((t) => t.taskName))].map((name) =>
      buildLimit(async () => {
        const task = tasksByName.get(name);
        if (task && !signal.aborted) prepared.set(name, await prepare(task));
      }),
    ),
  );
  const failedImages = [...prepared.entries()].flatMap(([task, p]) =>
    p.ok ? [] : [{ task, error: p.error }],
  );

  const limit = pLimit(config.concurrency);
  // An error that ends the job (a result the disk would not take) stops the other trials too, as
  // Ctrl-C does: none may go on running, or writing into a store being closed, after the job
  // has reported the error and its process is about to exit.
  const halt = new AbortController();
  const trialSignal = AbortSignal.any([signal, halt.signal]);
  setMaxListeners(Math.max(10, 4 * config.concurrency + 10), trialSignal);
  let failure: { error: unknown } | undefined;
  let ranThisTime = 0;
  await Promise.all(
    pending.map((planned) =>
      limit(async () => {
        if (trialSignal.aborted) return;
        const task = tasksByName.get(planned.taskName);
        const ready = prepared.get(planned.taskName);
        if (!task || !ready) return;
        try {
          progress.trialStarted(planned.trialId);
          // A task whose image failed: its trials record the build error (nothing to retry).
          const result = ready.ok
            ? await runPlannedTrial({
                config,
                ready,
                planned,
                trialDir: store.trialDir(config.job_id, planned.trialId),
                provider: o.provider,
                progress,
                signal: trialSignal,
              })
            : { ...infraFailure(config, task, planned, ready.error, "image"), infra_retries: 0 };
          if (result === null) return;
          await store.recordTrial(result);
          ranThisTime += 1;
          progress.trialFinished(result);
        } catch (e) {
          failure ??= { error: e };
          halt.abort(e);
        }
      }),
    ),
  );
  progress.stop();
  if (failure !== undefined) throw failure.error;
  const interrupted = signal.aborted;
  await store.setJobStatus(config.job_id, interrupted ? "interrupted" : "finished");
  const trials = await store.listTrials(config.job_id);
  return { jobId: config.job_id, trials, interrupted, ranThisTime, failedImages };
}
