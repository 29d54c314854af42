import { rmSync } from "node:fs";
import { type Job, Queue } from "bullmq";
import { errorMessage, type TrialResult, trialResultSchema, UserError } from "../core/index.js";
import { type ProgressSink, silentProgress } from "../runner/progress.js";
import type { JobOutcome } from "../runner/run-job.js";
import { infraFailure } from "../runner/run-planned-trial.js";
import { type PlannedTrial, planTrials } from "../runner/trial-plan.js";
import type { JobConfig, JobStore } from "../store/index.js";
import type { SkippedTask } from "../task/load.js";
import type { Task } from "../task/types.js";
import { BlobStore } from "./blob-store.js";
import { unpackTo } from "./pack.js";
import { checkRedis, connectRedis } from "./redis.js";
import { type TaskBundleRef, uploadTask } from "./task-bundle.js";
import {
  queueJobId,
  type RateLimit,
  TRIAL_QUEUE,
  type TrialJobData,
  trialReturnSchema,
} from "./trial-job.js";
import { MAX_STALLED } from "./worker.js";

/** A job to run on workers through a Redis queue: its store, config, tasks and queue. */
export interface DistributedRunOptions {
  store: JobStore;
  config: JobConfig;
  tasks: Task[];
  redisUrl: string;
  resume: boolean;
  /** BullMQ priority: 1 is taken first; absent means before every prioritised trial. */
  priority?: number;
  rateLimits?: Map<string, RateLimit>;
  progress?: ProgressSink;
  signal?: AbortSignal;
  skipped?: SkippedTask[];
  /** How often Redis is asked for finished trials. */
  pollMs?: number;
  /** Lines about the queue itself (discarded late results); stderr by default. */
  log?: (line: string) => void;
}

/** Times a trial whose worker failed (not stalled) is tried again before it is recorded as failed. */
const QUEUE_ATTEMPTS = 3;
/** Finished queue jobs read per poll. */
const PAGE = 200;

/**
 * Runs a job on the queue's workers: every trial not yet recorded is enqueued under an id made of
 * the job and trial ids (so enqueueing again, on resume, adds nothing twice), and finished trials
 * are collected from Redis — the ones that finished while no coordinator was attached too — and
 * recorded exactly once: a trial the store already holds is discarded with a line. A queue job is
 * removed from Redis only after its trial is recorded.
 */
export async function runDistributed(o: DistributedRunOptions): Promise<JobOutcome> {
  const { store, config } = o;
  const progress = o.progress ?? silentProgress;
  const signal = o.signal ?? new AbortController().signal;
  const log = o.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const tasksByName = new Map(o.tasks.map((t) => [t.name, t]));
  const skippedPaths = new Set((o.skipped ?? []).map((s) => s.path));
  for (const t of config.tasks) {
    if (!tasksByName.has(t.name) && !skippedPaths.has(t.path))
      throw new UserError(`task ${t.name} of job ${config.job_id} is not available`);
  }
  const plan = planTrials(config);
  // Redis is checked before the job exists, so a wrong URL leaves nothing behind.
  const redis = connectRedis(o.redisUrl, log);
  await checkRedis(redis, o.redisUrl);
  const queue = new Queue(TRIAL_QUEUE, { connection: redis });
  let jobOpen = false;
  try {
    if (o.resume) await store.ensureJobRow(config);
    else await store.createJob(config);
    jobOpen = true;
    const done = await store.reconcile(config.job_id);
    const pending = plan.filter((t) => !done.has(t.trialId) && tasksByName.has(t.taskName));
    progress.start(plan.length, plan.length - pending.length);
    const blobs = new BlobStore(redis);
    const refs = new Map<string, TaskBundleRef>();
    for (const name of new Set(pending.map((t) => t.taskName))) {
      const task = tasksByName.get(name);
      if (task) refs.set(name, await uploadTask(blobs, task));
    }
    await enqueue(queue, config, pending, refs, o);

    const byTrial = new Map(plan.map((p) => [p.trialId, p]));
    const prefix = `${config.job_id}__`;
    const waiting = new Set(pending.map((p) => p.trialId));
    const started = new Set<string>();
    let ranThisTime = 0;
    const collect = async (job: Job): Promise<boolean> => {
      const id = job.id ?? "";
      const trialId = id.slice(prefix.length);
      const planned = byTrial.get(trialId);
      const task = planned ? tasksByName.get(planned.taskName) : undefined;
      const ret = trialReturnSchema.safeParse(job.returnvalue);
      const artifacts = ret.success ? ret.data.artifacts : null;
      // Not a trial of this job (another job whose name starts like this one's): not ours to touch.
      if (planned === undefined || task === undefined) return false;
      if (done.has(trialId)) {
        log(`late result for trial ${trialId} of job ${config.job_id} discarded: already recorded`);
      } else {
        const result = await resultOf(job, ret.success ? ret.data.result : undefined, config, task, planned);
        const dir = store.trialDir(config.job_id, trialId);
        rmSync(dir, { recursive: true, force: true });
        if (artifacts !== null && result.outcome !== "infra_error") {
          try {
            unpackTo(await blobs.get(artifacts), dir);
          } catch (e) {
            log(`trial ${trialId}: artifacts not kept (${errorMessage(e)}); result recorded`);
            rmSync(dir, { recursive: true, force: true });
          }
        }
        await store.recordTrial(result);
        done.add(trialId);
        waiting.delete(trialId);
        ranThisTime += 1;
        if (!started.has(trialId)) progress.trialStarted(trialId);
        progress.trialFinished(result);
      }
      // Only now, with the trial on disk and indexed, does Redis forget it.
      await job.remove().catch(() => undefined);
      if (artifacts !== null) await blobs.delete(artifacts);
      return true;
    };

    while (!signal.aborted) {
      let collected = 0;
      for (const job of await finishedOf(queue, prefix)) if (await collect(job)) collected += 1;
      if (waiting.size === 0) break;
      for (const j of await queue.getJobs(["active"], 0, -1)) {
        const trialId = (j?.id ?? "").slice(prefix.length);
        if (j?.id?.startsWith(prefix) && waiting.has(trialId) && !started.has(trialId)) {
          started.add(trialId);
          progress.trialStarted(trialId);
        }
      }
      if (collected === 0) await sleep(o.pollMs ?? 250, signal);
    }
    progress.stop();
    const interrupted = signal.aborted;
    await store.setJobStatus(config.job_id, interrupted ? "interrupted" : "finished");
    const trials = await store.listTrials(config.job_id);
    const failedImages = new Map<string, string>();
    for (const t of trials) if (t.error?.kind === "image") failedImages.set(t.task.name, t.error.message);
    return {
      jobId: config.job_id,
      trials,
      interrupted,
      ranThisTime,
      failedImages: [...failedImages].map(([task, error]) => ({ task, error })),
    };
  } catch (e) {
    // A job that stopped on an error is not running any more (one that never started is untouched).
    if (jobOpen) await store.setJobStatus(config.job_id, "interrupted").catch(() => undefined);
    throw e;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

async function enqueue(
  queue: Queue,
  config: JobConfig,
  pending: PlannedTrial[],
  refs: Map<string, TaskBundleRef>,
  o: DistributedRunOptions,
): Promise<void> {
  const jobs = pending.flatMap((p) => {
    const ref = refs.get(p.taskName);
    if (ref === undefined) return [];
    const data = trialJobData(config, p, ref, p.model === null ? null : (o.rateLimits?.get(p.model) ?? null));
    return [
      {
        name: "trial",
        data,
        opts: {
          // Re-adding an id BullMQ already holds is a no-op: a resumed coordinator adds only the missing.
          jobId: queueJobId(config.job_id, p.trialId),
          attempts: QUEUE_ATTEMPTS,
          backoff: { type: "fixed", delay: 1000 },
          removeOnComplete: false,
          removeOnFail: false,
          ...(o.priority === undefined ? {} : { priority: o.priority }),
        },
      },
    ];
  });
  for (let i = 0; i < jobs.length; i += 500) await queue.addBulk(jobs.slice(i, i + 500));
}

/**
 * This job's finished queue jobs. The queue is shared with other coordinators' jobs, whose
 * finished trials wait there while their coordinator is away: every page is read past them.
 */
async function finishedOf(queue: Queue, prefix: string): Promise<Job[]> {
  const out: Job[] = [];
  for (let start = 0; ; start += PAGE) {
    const page = await queue.getJobs(["completed", "failed"], start, start + PAGE - 1, true);
    for (const j of page) if (j !== undefined && (j.id ?? "").startsWith(prefix)) out.push(j);
    if (page.length < PAGE || out.length >= PAGE) return out;
  }
}

/** The queue job of one planned trial. */
export function trialJobData(
  config: JobConfig,
  p: PlannedTrial,
  task: TaskBundleRef,
  rateLimit: RateLimit | null,
): TrialJobData {
  return {
    v: 1,
    job_id: config.job_id,
    trial_id: p.trialId,
    task,
    agent: p.agent,
    agent_options: config.agent_options,
    model: p.model,
    attempt: p.attempt,
    seed: p.seed,
    timeout_multiplier: config.timeout_multiplier,
    until_timeout: config.until_timeout === true,
    retries: config.retries,
    rate_limit: rateLimit,
  };
}

/** The recorded result of a finished queue job; a failed one becomes an infra_error like a local run's. */
async function resultOf(
  job: Job,
  raw: unknown,
  config: JobConfig,
  task: Task,
  planned: PlannedTrial,
): Promise<TrialResult> {
  const path = config.tasks.find((t) => t.name === task.name)?.path ?? task.dir;
  if ((await job.isCompleted()) && raw !== undefined) {
    const parsed = trialResultSchema.safeParse(raw);
    if (parsed.success && parsed.data.trial_id === planned.trialId && parsed.data.seed === planned.seed) {
      // The worker ran an unpacked copy: the result names the task where this job found it.
      return { ...parsed.data, task: { ...parsed.data.task, path } };
    }
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
