import { rmSync } from "node:fs";
import { type Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { errorMessage, type TrialResult, trialResultSchema, UserError } from "../core/index.js";
import { type ProgressSink, silentProgress } from "../runner/progress.js";
import type { JobOutcome } from "../runner/run-job.js";
import { infraFailure } from "../runner/run-planned-trial.js";
import { refuseMixedTaskVersions } from "../runner/task-versions.js";
import { type PlannedTrial, planTrials } from "../runner/trial-plan.js";
import type { JobConfig, JobLock, JobStore } from "../store/index.js";
import type { SkippedTask } from "../task/load.js";
import type { Task } from "../task/types.js";
import { BlobStore } from "./blob-store.js";
import { type CoordinatorLease, takeCoordinatorLease } from "./coordinator-lease.js";
import { enqueue } from "./enqueue.js";
import { resultCapBytes, unpackTo } from "./pack.js";
import { finishedOf, foreignField, queuedIdsOf } from "./queue-jobs.js";
import { checkRedis, checkWritable, connectRedis } from "./redis.js";
import { redactUrl } from "./redis-url.js";
import { type TaskBundleRef, uploadTask } from "./task-bundle.js";
import { MAX_PRIORITY, queueJobId, type RateLimit, TRIAL_QUEUE, trialReturnSchema } from "./trial-job.js";
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
  /** How often trials neither recorded nor queued are looked for (10 s). */
  sweepMs?: number;
  /** Lines about the queue itself (discarded late results); stderr by default. */
  log?: (line: string) => void;
  /** Cap on a trial's result pack in MiB (DEFAULT_MAX_RESULT_MIB): a larger one is not fetched. */
  maxResultMib?: number;
  /** How long the coordinator's hold on the job outlives it (COORDINATOR_LEASE_MS; shorter in tests). */
  leaseMs?: number;
}

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
  const log = o.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const tasksByName = new Map(o.tasks.map((t) => [t.name, t]));
  const skippedPaths = new Set((o.skipped ?? []).map((s) => s.path));
  for (const t of config.tasks) {
    if (!tasksByName.has(t.name) && !skippedPaths.has(t.path))
      throw new UserError(`task ${t.name} of job ${config.job_id} is not available`);
  }
  if (
    o.priority !== undefined &&
    (!Number.isInteger(o.priority) || o.priority < 1 || o.priority > MAX_PRIORITY)
  )
    throw new UserError(`--priority must be from 1 to ${MAX_PRIORITY}, got ${o.priority}`);
  const maxResultBytes = resultCapBytes(o.maxResultMib);
  const plan = planTrials(config);
  // Redis is checked before the job exists, so a wrong URL leaves nothing behind.
  const redis = connectRedis(o.redisUrl, log);
  await checkRedis(redis, o.redisUrl);
  await checkWritable(redis, o.redisUrl);
  const queue = new Queue(TRIAL_QUEUE, { connection: redis });
  let lease: CoordinatorLease | undefined;
  let lock: JobLock | undefined;
  let jobOpen = false;
  try {
    lease = await takeCoordinatorLease(redis, config.job_id, o.leaseMs, log);
    const held = lease.held;
    // The lease keeps other coordinators off the job; the lock keeps off a local run of its folder.
    lock = store.lockJob(config.job_id);
    // Ctrl-C, or another coordinator taking the job, ends the wait for Redis too (it may be down).
    const stop = AbortSignal.any([o.signal ?? new AbortController().signal, lease.lost]);
    if (!o.resume) await refuseLeftovers(redis, queue, config.job_id, o.redisUrl);
    // The queue is recorded (password masked) so that a report's resume command can name it.
    const queueUrl = redactUrl(o.redisUrl);
    if (o.resume) await store.ensureJobRow(config);
    else await store.createJob({ ...config, queue_url: queueUrl });
    jobOpen = true;
    // A resumed job may run on another queue than before (a new primary): the latest is kept.
    if (o.resume && store.hasJob(config.job_id)) await store.recordQueueUrl(config.job_id, queueUrl);
    const done = await store.reconcile(config.job_id, new Set(plan.map((t) => t.trialId)));
    await refuseMixedTaskVersions(store, config.job_id, o.tasks);
    const pending = plan.filter((t) => !done.has(t.trialId) && tasksByName.has(t.taskName));
    progress.start(plan.length, plan.length - pending.length);
    const byTrial = new Map(plan.map((p) => [p.trialId, p]));
    const waiting = new Set(pending.map((p) => p.trialId));
    let ranThisTime = 0;
    try {
      const blobs = new BlobStore(redis);
      const refs = new Map<string, TaskBundleRef>();
      const enqueueAgain = async (trials: PlannedTrial[]): Promise<void> => {
        for (const name of new Set(trials.map((t) => t.taskName))) {
          const task = tasksByName.get(name);
          if (task !== undefined && !refs.has(name))
            refs.set(name, await orStop(uploadTask(blobs, task), stop));
        }
        await orStop(enqueue(queue, config, trials, refs, o), stop);
      };
      await enqueueAgain(pending);

      const prefix = `${config.job_id}__`;
      const started = new Set<string>();
      // Trials whose queue job held another run's trial, already sent again once.
      const requeued = new Set<string>();
      const record = async (result: TrialResult, trialId: string): Promise<void> => {
        await store.recordTrial(result);
        done.add(trialId);
        waiting.delete(trialId);
        ranThisTime += 1;
        if (!started.has(trialId)) progress.trialStarted(trialId);
        progress.trialFinished(result);
      };
      const collect = async (job: Job): Promise<boolean> => {
        // Not surely ours any more: another coordinator may take the job and collect this trial.
        if (!held()) return false;
        const id = job.id ?? "";
        const trialId = id.slice(prefix.length);
        const planned = byTrial.get(trialId);
        const task = planned ? tasksByName.get(planned.taskName) : undefined;
        const ret = trialReturnSchema.safeParse(job.returnvalue);
        const artifacts = ret.success ? ret.data.artifacts : null;
        const note = ret.success ? ret.data.artifacts_note : undefined;
        // Not a trial of this job (another job whose name starts like this one's): not ours to touch.
        if (planned === undefined || task === undefined) return false;
        if (done.has(trialId)) {
          log(`late result for trial ${trialId} of job ${config.job_id} discarded: already recorded`);
        } else {
          const completed = await orStop(job.isCompleted(), stop);
          const raw = completed && ret.success ? ret.data.result : undefined;
          const foreign =
            foreignField(job.data, config, task, planned) ??
            (raw === undefined ? null : foreignField(raw, config, task, planned));
          if (foreign !== null && !requeued.has(trialId)) {
            // Another run's trial under this id (an older job of the same name, a changed task):
            // it is no result of this job, so the trial runs again as planned now.
            requeued.add(trialId);
            log(`trial ${trialId}: the queue held another run's trial (${foreign}); it runs again`);
            await orStop(job.remove(), stop);
            if (artifacts !== null) await orStop(blobs.delete(artifacts), stop);
            await enqueueAgain([planned]);
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
              ? await orStop(blobs.get(artifacts, maxResultBytes), stop).catch((e: unknown) => {
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
          await record(result, trialId);
        }
        // Only now, with the trial on disk and indexed, does Redis forget it.
        await orStop(job.remove(), stop).catch((e: unknown) => {
          if (e instanceof Stopped) throw e;
        });
        if (artifacts !== null) await orStop(blobs.delete(artifacts), stop);
        return true;
      };
      /**
       * Trials this coordinator waits for that are neither recorded nor in the queue (Redis lost
       * them, or something else removed them) would be waited for forever: the store is read
       * again, and what it does not hold is enqueued again.
       */
      const sweep = async (): Promise<void> => {
        for (const r of await store.listTrials(config.job_id)) {
          if (!waiting.has(r.trial_id)) continue;
          done.add(r.trial_id);
          waiting.delete(r.trial_id);
          progress.trialFinished(r);
        }
        const ids = [...waiting];
        if (ids.length === 0) return;
        const pipe = redis.pipeline();
        for (const t of ids) pipe.exists(queue.toKey(queueJobId(config.job_id, t)));
        const held = (await orStop(pipe.exec(), stop)) ?? [];
        const lost = ids.flatMap((t, i) => {
          const p = byTrial.get(t);
          return held[i]?.[1] === 0 && p !== undefined ? [p] : [];
        });
        if (lost.length === 0) return;
        log(
          `${lost.length} trial(s) of job ${config.job_id} were neither recorded nor queued: enqueued again`,
        );
        await enqueueAgain(lost);
      };

      let lastSweep = Date.now();
      while (!stop.aborted) {
        // While the lease is unsure, finished trials stay in the queue (for this coordinator once
        // a renewal succeeds, or for the one that took the job); nothing is recorded or sent again.
        if (!held()) {
          await sleep(o.pollMs ?? 250, stop);
          continue;
        }
        let collected = 0;
        for (const job of await orStop(finishedOf(queue, prefix), stop))
          if (await collect(job)) collected += 1;
        if (waiting.size === 0) break;
        for (const j of await orStop(queue.getJobs(["active"], 0, -1), stop)) {
          const trialId = (j?.id ?? "").slice(prefix.length);
          if (j?.id?.startsWith(prefix) && waiting.has(trialId) && !started.has(trialId)) {
            started.add(trialId);
            progress.trialStarted(trialId);
          }
        }
        if (Date.now() - lastSweep >= (o.sweepMs ?? SWEEP_MS)) {
          await sweep();
          lastSweep = Date.now();
          if (waiting.size === 0) break;
        }
        if (collected === 0) await sleep(o.pollMs ?? 250, stop);
      }
    } catch (e) {
      // A stop while waiting on Redis: the job is marked interrupted below without it.
      if (!(e instanceof Stopped)) throw e;
    }
    progress.stop();
    if (lease.lost.aborted) throw lease.lost.reason;
    const interrupted = stop.aborted || waiting.size > 0;
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
    lock?.release();
    await lease?.release();
    // With Redis down, closing the queue would wait for it: the connection is dropped after a while.
    await Promise.race([queue.close().catch(() => undefined), delay(2000)]);
    redis.disconnect();
  }
}

/**
 * Entries a worker's trial folder may hold: its two log copies keep at most 10,000 each (see
 * LOG_COPY_LIMITS), so a pack far past that was not made by a trial, and would flood the host.
 */
export const RESULT_MAX_ENTRIES = 100_000;

/** How often the store and the queue are compared for trials nobody holds (`sweep`). */
const SWEEP_MS = 10_000;

/**
 * A fresh job whose name the queue still holds trials of (an older job of that name, in another
 * jobs folder or with other tasks) would take their results for its own: it is refused.
 */
async function refuseLeftovers(redis: Redis, queue: Queue, jobId: string, url: string): Promise<void> {
  const ids = await queuedIdsOf(redis, queue, jobId);
  if (ids.length === 0) return;
  throw new UserError(
    `the queue at ${redactUrl(url)} still holds ${ids.length} trial(s) of an earlier job named ${jobId}: continue that job with run --resume --job ${jobId}, or remove them with: longhaul queue clear ${redactUrl(url)} --job ${jobId}`,
  );
}

/** Thrown by `orStop` when the coordinator is told to stop while waiting (on Redis). */
class Stopped extends Error {}

/** `p`, or a Stopped error as soon as `signal` aborts: a Redis command can wait forever. */
function orStop<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(new Stopped("stopped"));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Stopped("stopped"));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
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
