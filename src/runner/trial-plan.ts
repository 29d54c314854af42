import { hashString, safeName } from "../core/index.js";
import type { JobConfig } from "../store/index.js";

export interface PlannedTrial {
  trialId: string;
  taskName: string;
  agent: string;
  model: string | null;
  attempt: number;
  /**
   * Hidden stress seed: a function of (job seed, task, attempt) only, so every agent and model in
   * a job (and in any job with the same seed) faces the same hidden cases.
   */
  seed: number;
}

/** A job is tasks × agents × models × attempts, in a stable order. */
export function planTrials(config: JobConfig): PlannedTrial[] {
  const out: PlannedTrial[] = [];
  for (const task of config.tasks) {
    for (const agent of config.agents) {
      for (const model of config.models) {
        for (let attempt = 1; attempt <= config.attempts; attempt++) {
          const trialId = trialIdOf(task.name, agent, model, attempt);
          out.push({
            trialId,
            taskName: task.name,
            agent,
            model,
            attempt,
            seed: stressSeed(config.seed, task.name, attempt),
          });
        }
      }
    }
  }
  return out;
}

export function trialIdOf(task: string, agent: string, model: string | null, attempt: number): string {
  const parts = [safeName(task), safeName(agent)];
  if (model !== null) parts.push(safeName(model));
  parts.push(`a${attempt}`);
  return parts.join("__");
}

/**
 * The hidden stress seed of one (task, attempt) under a job seed. The agent and model are
 * deliberately not inputs: two models must be scored on the same hidden work.
 */
export function stressSeed(jobSeed: number, taskName: string, attempt: number): number {
  return hashString(`stress:${jobSeed}:${taskName}:${attempt}`) % 2_147_483_647;
}
