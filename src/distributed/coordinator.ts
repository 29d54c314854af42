import { Queue } from "bullmq";
import { type TrialResult, UserError } from "../core/index.js";
import { type ProgressSink, silentProgress } from "../runner/progress.js";
import type { JobOutcome } from "../runner/run-job.js";
import { refuseMixedTaskVersions } from "../runner/task-versions.js";
import { type PlannedTrial, planTrials } from "../runner/trial-plan.js";
import type { JobConfig, JobLock, JobStore } from "../store/index.js";
import type { SkippedTask } from "../task/load.js";
import type { Task } from "../task/types.js";
import { BlobStore } from "./blob-store.js";
import { collectUntilDone } from "./collect-loop.js";
import { type CoordinatorLease, takeCoordinatorLease } from "./coordinator-lease.js";
import type { CoordinatorRun } from "./coordinator-run.js";
import { enqueue } from "./enqueue.js";
import { resultCapBytes } from "./pack.js";
import { refuseLeftovers } from "./queue-leftovers.js";
import { checkRedis, checkWritable, connectRedis } from "./redis.js";
import { redactUrl } from "./redis-url.js";
import { delay, orStop, Stopped } from "./stoppable-wait.js";
import { type TaskBundleRef, uploadTask } from "./task-bundle.js";
import { MAX_PRIORITY, type RateLimit, TRIAL_QUEUE } from "./trial-job.js";

export { RESULT_MAX_ENTRIES } from "./collect-trial.js";

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

      const started = new Set<string>();
      const run: CoordinatorRun = {
        store,
        config,
        redis,
        queue,
        blobs,
        progress,
        log,
        stop,
        held,
        maxResultBytes,
        prefix: `${config.job_id}__`,
        tasksByName,
        byTrial,
        done,
        waiting,
        started,
        requeued: new Set<string>(),
        enqueueAgain,
        record: async (result: TrialResult, trialId: string): Promise<void> => {
          await store.recordTrial(result);
          done.add(trialId);
          waiting.delete(trialId);
          ranThisTime += 1;
          if (!started.has(trialId)) progress.trialStarted(trialId);
          progress.trialFinished(result);
        },
      };
      await collectUntilDone(run, o);
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
