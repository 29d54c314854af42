import type { JobConfig } from "../store/job-config.js";

/** `<job>/result.json`'s counts: what ran, how it ended, and the mean reward. */
export interface JobSummary {
  job_id: string;
  status: "interrupted" | "finished";
  trials: number;
  planned: number;
  outcomes: Record<string, number>;
  mean_reward: number | null;
}

/**
 * The job summary written at the end of a run. Every trial but infrastructure failures counts; a
 * grading error counts as R = 0 (as in the report), so nothing an agent does takes a trial out.
 */
export function jobSummary(
  config: JobConfig,
  trials: readonly { outcome: string; reward: number | null }[],
  interrupted: boolean,
): JobSummary {
  const outcomes: Record<string, number> = {};
  for (const t of trials) outcomes[t.outcome] = (outcomes[t.outcome] ?? 0) + 1;
  const scored = trials.filter((t) => t.outcome !== "infra_error");
  return {
    job_id: config.job_id,
    status: interrupted ? "interrupted" : "finished",
    trials: trials.length,
    planned: config.tasks.length * config.agents.length * config.models.length * config.attempts,
    outcomes,
    mean_reward: scored.length > 0 ? scored.reduce((s, t) => s + (t.reward ?? 0), 0) / scored.length : null,
  };
}
