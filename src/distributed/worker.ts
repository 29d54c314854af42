import { mkdtempSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { DelayedError, type Job, UnrecoverableError, WaitingError, Worker } from "bullmq";
import { errorMessage, type TrialResult, UserError } from "../core/index.js";
import { packageVersion } from "../core/package-root.js";
import { infraFailure, runPlannedTrial } from "../runner/run-planned-trial.js";
import { type PreparedTask, prepareTask } from "../runner/task-image.js";
import { getSandboxProvider } from "../sandbox/registry.js";
import { BlobError, BlobStore, RESULT_BLOB_TTL_SEC } from "./blob-store.js";
import { onceAMinute } from "./log-once.js";
import { PackTooLargeError, packDir, resultCapBytes } from "./pack.js";
import { takeRateSlot } from "./rate-limit.js";
import { checkRedis, checkWritable, connectRedis } from "./redis.js";
import { fetchTask } from "./task-bundle.js";
import { TRIAL_QUEUE, type TrialJobData, type TrialReturn, trialJobSchema } from "./trial-job.js";
import { prepareCache, trialsDirOf } from "./worker-cache.js";

export interface WorkerOptions {
  redisUrl: string;
  concurrency: number;
  sandbox: string;
  cacheDir: string;
  /** How long a trial's lease lasts without renewal: a killed worker's trial runs again after it. */
  lockMs: number;
  /** How often leases are checked for expiry. */
  stalledMs: number;
  /** Cap on a trial's result pack in MiB (DEFAULT_MAX_RESULT_MIB): a larger folder is not sent. */
  maxResultMib?: number;
  log: (line: string) => void;
}

export interface RunningWorker {
  name: string;
  /**
   * Stops taking trials; running ones are abandoned (they run again elsewhere). False when Redis
   * did not answer and the worker stopped without it: its connections may still be retrying.
   */
  close(): Promise<boolean>;
}

/** How long a worker keeps a task's failed image build before trying the build again. */
const IMAGE_FAILURE_TTL_MS = 10 * 60_000;

/** Times a trial is handed out again after its worker died, before it is given up. */
export const MAX_STALLED = 5;

/** Node's timers overflow past 2^31 − 1 ms (they then fire at once, and BullMQ spins). */
export const MAX_LOCK_MS = 2 ** 31 - 1;
/**
 * BullMQ's stalled check is queue-wide: a worker that runs it holds a key for `stalledInterval`
 * that keeps every other worker from checking meanwhile. One hour bounds how long one worker's
 * setting can keep killed workers' trials from coming back.
 */
export const MAX_STALLED_MS = 3_600_000;

/** How long a trial of another longhaul version waits before a worker looks at it again. */
const FOREIGN_VERSION_DELAY_MS = 10_000;

/** Errors of a dropped connection: the outage is logged once by the connection itself. */
const CONNECTION_ERROR =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|Connection is closed/;

export async function startWorker(o: WorkerOptions): Promise<RunningWorker> {
  checkLeases(o);
  const maxResultBytes = resultCapBytes(o.maxResultMib);
  const cacheDir = resolve(o.cacheDir);
  prepareCache(cacheDir, o.log);
  const provider = getSandboxProvider(o.sandbox);
  const version = packageVersion();
  // Redis first: a wrong or read-only queue is said within a second, not after the sandbox
  // check (a smoke run and a scan of the host, seconds on a busy machine).
  const redis = connectRedis(o.redisUrl, o.log);
  await checkRedis(redis, o.redisUrl);
  await checkWritable(redis, o.redisUrl);
  try {
    await provider.check();
  } catch (e) {
    redis.disconnect();
    throw e;
  }
  const blobs = new BlobStore(redis);
  const name = `${hostname()}:${process.pid}`;
  const stopping = new AbortController();
  // One image preparation per task bundle for the worker's lifetime (docker caches the rest).
  const images = new Map<string, Promise<PreparedTask>>();
  // Running trials by queue id, to stop the one whose lease could not be renewed.
  const leases = new Map<string, AbortController>();
  // Each foreign version is logged once, not once per trial and look.
  const foreignVersions = new Set<string>();

  const process_ = async (job: Job, token?: string): Promise<TrialReturn> => {
    const theirs = versionOf(job.data);
    if (theirs !== version) {
      // Not failed and no attempt used: it waits for a worker of its coordinator's version.
      if (!foreignVersions.has(theirs)) {
        foreignVersions.add(theirs);
        o.log(
          `trials of longhaul ${theirs} left queued (first: ${job.id}): this worker runs ${version}; start a worker of ${theirs} for them`,
        );
      }
      await job.moveToDelayed(Date.now() + FOREIGN_VERSION_DELAY_MS, token);
      throw new DelayedError();
    }
    const parsed = trialJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`malformed trial: ${parsed.error.issues[0]?.message}`);
    const data = parsed.data;
    if (data.rate_limit !== null && data.model !== null) {
      const next = await takeRateSlot(redis, data.model, data.rate_limit);
      if (next > 0) {
        // Jitter spreads the waiting trials over the next window instead of all at its start.
        await job.moveToDelayed(next + Math.floor(Math.random() * 50), token);
        throw new DelayedError();
      }
    }
    o.log(`start  ${job.id}`);
    let task: Awaited<ReturnType<typeof fetchTask>>;
    try {
      task = await fetchTask(blobs, data.task, cacheDir);
    } catch (e) {
      // A missing or damaged bundle is the same on every worker: the trial is given up at once.
      if (e instanceof BlobError) throw new UnrecoverableError(errorMessage(e));
      throw e;
    }
    let prepared = images.get(data.task.bundle);
    if (prepared === undefined) {
      prepared = prepareTask(task, join(cacheDir, "images"), o.log);
      images.set(data.task.bundle, prepared);
    }
    const ready = await prepared;
    if (!ready.ok && images.get(data.task.bundle) === prepared) {
      // A failed build is not kept for the worker's lifetime: it may have been the machine's fault.
      const failed = prepared;
      setTimeout(() => {
        if (images.get(data.task.bundle) === failed) images.delete(data.task.bundle);
      }, IMAGE_FAILURE_TTL_MS).unref();
    }
    const planned = plannedOf(data);
    const trialDir = mkdtempSync(join(trialsDirOf(cacheDir), `${data.trial_id}-`));
    const lease = new AbortController();
    leases.set(job.id ?? "", lease);
    try {
      let result: TrialResult | null;
      try {
        result = ready.ok
          ? await runPlannedTrial({
              config: data,
              ready,
              planned,
              trialDir,
              provider,
              progress: { trialRetry: (id, n, why) => o.log(`retry  ${id} (attempt ${n}): ${why}`) },
              signal: AbortSignal.any([stopping.signal, lease.signal]),
            })
          : { ...infraFailure(data, task, planned, ready.error, "image"), infra_retries: 0 };
      } catch (e) {
        // What a local run stops the whole job for stops this trial only: it is recorded as failed.
        throw new UnrecoverableError(errorMessage(e));
      }
      if (result === null) {
        if (lease.signal.aborted) throw new Error("lease lost");
        return await backToQueue(job, token);
      }
      const sent = await sendFolder(blobs, trialDir, maxResultBytes);
      if (sent.note !== undefined) o.log(`trial ${job.id}: artifacts not kept (${sent.note}); result sent`);
      const reward = result.reward === null ? "-" : result.reward.toFixed(3);
      o.log(`done   ${job.id}  R=${reward}  ${result.outcome}`);
      return {
        result,
        artifacts: sent.artifacts,
        worker: name,
        ...(sent.note === undefined ? {} : { artifacts_note: sent.note }),
      };
    } finally {
      if (leases.get(job.id ?? "") === lease) leases.delete(job.id ?? "");
      rmSync(trialDir, { recursive: true, force: true });
    }
  };

  const worker = new Worker(TRIAL_QUEUE, process_, {
    connection: redis,
    concurrency: o.concurrency,
    lockDuration: o.lockMs,
    stalledInterval: o.stalledMs,
    maxStalledCount: MAX_STALLED,
    name,
  });
  let connectionErrorLogged = false;
  redis.on("ready", () => {
    connectionErrorLogged = false;
  });
  // A Redis that refuses writes (a primary turned replica, a full disk) fails every poll, ten
  // times a second: the same line is logged once a minute, with how often it came meanwhile.
  const quietError = onceAMinute(o.log);
  worker.on("error", (e) => {
    const msg = errorMessage(e);
    if (CONNECTION_ERROR.test(msg)) {
      // BullMQ's own connections report every reconnect attempt: one line per outage is enough.
      if (!connectionErrorLogged) o.log(`worker error: ${msg} (logged once until Redis is back)`);
      connectionErrorLogged = true;
      return;
    }
    const lost = /could not renew lock for job (\S+)/.exec(msg)?.[1];
    if (lost !== undefined) {
      // The lease is gone, so the trial is (or soon will be) another worker's: stop this copy.
      o.log(`lease lost for ${lost}: trial abandoned here (it runs again elsewhere)`);
      leases.get(lost)?.abort(new Error("lease lost"));
    } else if (/Missing (lock|key) for job|Lock mismatch for job|is not in the active state/.test(msg)) {
      // BullMQ refuses a result whose lease expired: the trial was handed to another worker.
      o.log(`late result rejected (lease lost; the trial ran elsewhere): ${msg}`);
    } else {
      quietError(`worker error: ${msg}`);
    }
  });
  worker.on("failed", (job, e) => {
    if (job !== undefined && !(e instanceof DelayedError)) o.log(`failed ${job.id}: ${errorMessage(e)}`);
  });
  await worker.waitUntilReady();
  o.log(`worker ${name}: ${o.concurrency} at once, sandbox ${o.sandbox}, cache ${cacheDir}`);
  return {
    name,
    close: async () => {
      stopping.abort(new Error("worker stopping"));
      // BullMQ's close waits for Redis (to put running trials back): with Redis down it would
      // wait forever, so the worker stops without it; the leases of its trials then lapse and the
      // stalled check returns them, as for a killed worker. A connection already lost (or lost
      // meanwhile) cannot answer: no point waiting out CLOSE_WAIT_MS for it.
      const closed = worker.close().then(
        () => true,
        () => true,
      );
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<"timeout">((r) => {
        timer = setTimeout(() => r("timeout"), CLOSE_WAIT_MS);
        timer.unref();
      });
      const lost = new Promise<"down">((r) => {
        if (redis.status !== "ready") r("down");
        else redis.once("close", () => r("down"));
      });
      const ended = await Promise.race([closed, timedOut, lost]);
      clearTimeout(timer);
      const clean = ended === true;
      if (!clean) {
        o.log(
          ended === "down"
            ? "Redis did not answer (its connection is down): stopping without it (running trials return when their leases lapse)"
            : `Redis did not answer within ${CLOSE_WAIT_MS / 1000} s: stopping without it (running trials return when their leases lapse)`,
        );
        void worker.disconnect().catch(() => undefined);
      }
      redis.disconnect();
      return clean;
    },
  };
}

/**
 * A trial this worker stopped (SIGINT/SIGTERM) goes back to the queue without using one of its
 * attempts, as a killed worker's would. If Redis cannot take it back now, the lease lapses and the
 * stalled check returns it instead.
 */
async function backToQueue(job: Job, token: string | undefined): Promise<never> {
  await job.moveToWait(token).catch(() => undefined);
  throw new WaitingError();
}

/** The longhaul version a queued trial was planned by; a trial of an older coordinator has none. */
function versionOf(data: unknown): string {
  const v =
    typeof data === "object" && data !== null
      ? (data as { longhaul_version?: unknown }).longhaul_version
      : undefined;
  return typeof v === "string" && v !== "" ? v : "unknown (older than the version check)";
}

function checkLeases(o: WorkerOptions): void {
  const bad = (v: number, max: number): boolean => !Number.isInteger(v) || v <= 0 || v > max;
  if (bad(o.lockMs, MAX_LOCK_MS))
    throw new UserError(`--lock-ms must be a whole number of ms from 1 to ${MAX_LOCK_MS}, got ${o.lockMs}`);
  if (bad(o.stalledMs, MAX_STALLED_MS))
    throw new UserError(
      `--stalled-ms must be a whole number of ms from 1 to ${MAX_STALLED_MS} (it is queue-wide), got ${o.stalledMs}`,
    );
}

/**
 * How long a stopping worker waits for BullMQ to close (it needs Redis) before going without it,
 * when its connection is up but Redis does not answer (a stopped or overloaded server).
 */
const CLOSE_WAIT_MS = 10_000;

/**
 * A trial folder as a result blob; one whose pack would pass the cap is not sent (nor held whole):
 * the result goes without it, and the reason with it for the coordinator's log.
 */
async function sendFolder(
  blobs: BlobStore,
  dir: string,
  maxBytes: number,
): Promise<{ artifacts: string | null; note?: string }> {
  let bytes: Buffer;
  try {
    bytes = packDir(dir, { maxBytes });
  } catch (e) {
    if (e instanceof PackTooLargeError) return { artifacts: null, note: errorMessage(e) };
    throw e;
  }
  return { artifacts: await blobs.put(bytes, RESULT_BLOB_TTL_SEC) };
}

function plannedOf(d: TrialJobData) {
  return {
    trialId: d.trial_id,
    taskName: d.task.name,
    agent: d.agent,
    model: d.model,
    attempt: d.attempt,
    seed: d.seed,
  };
}
