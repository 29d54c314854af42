import type { TrialResult } from "../core/index.js";
import type { TrialParams } from "./run-trial.js";

/** The fields that name a trial, the same for every kind of trial (terminal task or world). */
export type TrialHeader = Pick<
  TrialResult,
  "schema_version" | "job_id" | "trial_id" | "task" | "agent" | "model" | "attempt" | "seed"
>;

export function trialHeader(p: TrialParams): TrialHeader {
  return {
    schema_version: 1,
    job_id: p.jobId,
    trial_id: p.trialId,
    task: {
      name: p.task.name,
      checksum: p.task.checksum,
      category: p.task.config.metadata.category,
      difficulty: p.task.config.metadata.difficulty,
      path: p.task.dir,
    },
    agent: p.agent,
    model: p.model,
    attempt: p.attempt,
    seed: p.seed,
  };
}

/** Seconds as stored in results: to the millisecond. */
export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
