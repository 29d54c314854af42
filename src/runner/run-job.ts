import { join } from "node:path";
import pLimit from "p-limit";
import { emptyUsage, errorMessage, InfraError, type TrialResult, UserError } from "../core/index.js";
import { sweepStaleSandboxes } from "../sandbox/sweep.js";
import type { SandboxProvider } from "../sandbox/types.js";
import type { JobConfig, JobStore } from "../store/index.js";
import type { SkippedTask } from "../task/load.js";
import type { Task } from "../task/types.js";
import { type ProgressSink, silentProgress } from "./progress.js";
import { runTrial, TrialInterrupted } from "./run-trial.js";
import { type PreparedTask, taskPreparer } from "./task-image.js";
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
  if (o.resume) await store.ensureJobRow(config);
  else await store.createJob(config);
  try {
    return await runPlanned(o, plan, progress, signal);
  } catch (e) {
    // A job that stopped on an error is not running any more; finished trials stay recorded.
    await store.setJobStatus(config.job_id, "interrupted").catch(() => undefined);
    throw e;
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
  const done = await store.reconcile(config.job_id);
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
  let ranThisTime = 0;
  await Promise.all(
    pending.map((planned) =>
      limit(async () => {
        if (signal.aborted) return;
        const task = tasksByName.get(planned.taskName);
        const ready = prepared.get(planned.taskName);
        if (!task || !ready) return;
        progress.trialStarted(planned.trialId);
        // A task whose image failed: its trials record the build error (nothing to retry).
        const result = ready.ok
          ? await runWithRetries(o, ready, planned, progress, signal)
          : { ...infraFailure(config, task, planned, ready.error, "image"), infra_retries: 0 };
        if (result === null) return;
        await store.recordTrial(result);
        ranThisTime += 1;
        progress.trialFinished(result);
      }),
    ),
  );
  progress.stop();
  const interrupted = signal.aborted;
  await store.setJobStatus(config.job_id, interrupted ? "interrupted" : "finished");
  const trials = await store.listTrials(config.job_id);
  return { jobId: config.job_id, trials, interrupted, ranThisTime, failedImages };
}

/** Runs a trial, retrying infrastructure failures; returns null when the job was interrupted. */
async function runWithRetries(
  o: RunJobOptions,
  ready: Extract<PreparedTask, { ok: true }>,
  planned: PlannedTrial,
  progress: ProgressSink,
  signal: AbortSignal,
): Promise<TrialResult | null> {
  const { config, store } = o;
  const { task, image } = ready;
  let lastError: unknown;
  for (let attempt = 0; attempt <= config.retries; attempt++) {
    if (signal.aborted) return null;
    try {
      const result = await runTrial({
        jobId: config.job_id,
        trialId: planned.trialId,
        trialDir: store.trialDir(config.job_id, planned.trialId),
        task,
        agent: planned.agent,
        agentOptions: config.agent_options,
        model: planned.model,
        attempt: planned.attempt,
        seed: planned.seed,
        provider: o.provider,
        timeoutMultiplier: config.timeout_multiplier,
        signal,
        untilTimeout: config.until_timeout === true,
        image,
      });
      return { ...result, infra_retries: attempt };
    } catch (e) {
      if (e instanceof TrialInterrupted || signal.aborted) return null;
      if (!(e instanceof InfraError) || !e.retryable) {
        if (e instanceof UserError || !(e instanceof InfraError)) throw e;
      }
      lastError = e;
      if (attempt < config.retries) {
        progress.trialRetry(planned.trialId, attempt + 2, errorMessage(e));
        await new Promise((r) => setTimeout(r, Math.min(5000, 250 * 2 ** attempt)));
      }
    }
  }
  return infraFailure(config, task, planned, errorMessage(lastError));
}

function infraFailure(
  config: JobConfig,
  task: Task,
  planned: PlannedTrial,
  message: string,
  kind = "infra",
): TrialResult {
  const now = new Date().toISOString();
  return {
    schema_version: 1,
    job_id: config.job_id,
    trial_id: planned.trialId,
    task: {
      name: task.name,
      checksum: task.checksum,
      category: task.config.metadata.category,
      difficulty: task.config.metadata.difficulty,
      path: task.dir,
    },
    agent: planned.agent,
    model: planned.model,
    attempt: planned.attempt,
    seed: planned.seed,
    timing: {
      started_at: now,
      finished_at: now,
      setup_sec: 0,
      agent_sec: 0,
      verifier_sec: 0,
      verifier_command_sec: 0,
      total_sec: 0,
    },
    outcome: "infra_error",
    self_terminated: false,
    reward: null,
    subtasks: [],
    grading_errors: [],
    usage: emptyUsage(),
    infra_retries: config.retries,
    error: { kind, message },
    stress_digest: null,
    budget_left_sec: null,
    continuation: null,
  };
}
