import { hashString, safeName } from "../core/index.js";
import type { JobConfig } from "../store/index.js";

export interface PlannedTrial {
  trialId: string;
  taskName: string;
  agent: string;
  model: string | null;
  attempt: number;
  /** Hidden stress seed, derived from the job's master seed so a job can be re-run identically. */
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
            seed: deriveSeed(config.seed, trialId),
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

export function deriveSeed(masterSeed: number, trialId: string): number {
  return hashString(`${masterSeed}:${trialId}`) % 2_147_483_647;
}
