import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { TrialResult } from "../core/index.js";
import type { ProgressSink } from "../runner/progress.js";
import type { PlannedTrial } from "../runner/trial-plan.js";
import type { JobConfig, JobStore } from "../store/index.js";
import type { Task } from "../task/types.js";
import type { BlobStore } from "./blob-store.js";

/**
 * One coordinator's run of a job, as its parts share it: where trials are recorded and queued,
 * what the plan holds, which trials are done or awaited, and how to stop.
 */
export interface CoordinatorRun {
  store: JobStore;
  config: JobConfig;
  redis: Redis;
  queue: Queue;
  blobs: BlobStore;
  progress: ProgressSink;
  /** Lines about the queue itself (discarded late results, lost trials). */
  log: (line: string) => void;
  /** Ctrl-C, or another coordinator taking the job: every wait on Redis ends. */
  stop: AbortSignal;
  /** Whether the coordinator lease is surely held: nothing is recorded while it is not. */
  held: () => boolean;
  /** Cap on a trial's result pack in bytes: a larger one is not fetched. */
  maxResultBytes: number;
  /** `<job>__`: the start of every queue job id of this job. */
  prefix: string;
  tasksByName: ReadonlyMap<string, Task>;
  byTrial: ReadonlyMap<string, PlannedTrial>;
  /** Trials recorded in the store. */
  done: Set<string>;
  /** Trials this coordinator waits for. */
  waiting: Set<string>;
  /** Trials a worker was seen running (their start is shown once). */
  started: Set<string>;
  /** Trials whose queue job held another run's trial, already sent again once. */
  requeued: Set<string>;
  /** Uploads the trials' tasks (once each) and enqueues the trials. */
  enqueueAgain(trials: PlannedTrial[]): Promise<void>;
  /** Records a trial's result in the store and shows it as finished. */
  record(result: TrialResult, trialId: string): Promise<void>;
}
