import { hashString, safeName, UserError } from "../core/index.js";
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

/**
 * A job is tasks × agents × models × attempts, in a stable order. Trial ids are folder names, so
 * names that differ only in characters a folder name cannot hold (`x y` and `x_y`) would share a
 * trial and one result would overwrite the other: such a job is refused before it starts.
 */
export function planTrials(config: JobConfig): PlannedTrial[] {
  checkTrialCount(config);
  const out: PlannedTrial[] = [];
  const owners = new Map<string, PlannedTrial>();
  const pathOf = new Map(config.tasks.map((t) => [t.name, t.path]));
  for (const task of config.tasks) {
    for (const agent of config.agents) {
      for (const model of config.models) {
        for (let attempt = 1; attempt <= config.attempts; attempt++) {
          const trialId = trialIdOf(task.name, agent, model, attempt);
          const planned = {
            trialId,
            taskName: task.name,
            agent,
            model,
            attempt,
            seed: config.attempt_seeds?.[attempt - 1] ?? stressSeed(config.seed, task.name, attempt),
          };
          const clash = owners.get(trialId);
          if (clash !== undefined) throw clashError(clash, planned, pathOf);
          owners.set(trialId, planned);
          out.push(planned);
        }
      }
    }
  }
  return out;
}

/**
 * Most trials one job may plan. Its config.json is the user's (hand-edited, or from a bigger
 * machine): a product past this would exhaust memory (or a Map's size) while planning.
 */
export const MAX_JOB_TRIALS = 1_000_000;

function checkTrialCount(config: JobConfig): void {
  const n = config.tasks.length * config.agents.length * config.models.length * config.attempts;
  if (n <= MAX_JOB_TRIALS) return;
  throw new UserError(
    `job ${config.job_id}: ${config.tasks.length} task(s) × ${config.agents.length} agent(s) × ${config.models.length} model(s) × ${config.attempts} attempt(s) is more than ${MAX_JOB_TRIALS} trials; split it into smaller jobs`,
  );
}

function clashError(a: PlannedTrial, b: PlannedTrial, pathOf: Map<string, string>): UserError {
  const why = "map to the same trial folder (characters other than letters, digits, . _ - become _)";
  if (a.taskName !== b.taskName) {
    return new UserError(
      `tasks "${a.taskName}" (${pathOf.get(a.taskName) ?? "?"}) and "${b.taskName}" (${pathOf.get(b.taskName) ?? "?"}) ${why}: rename one of them (task.toml [task] name or its folder)`,
    );
  }
  if (a.agent !== b.agent) return new UserError(`agents "${a.agent}" and "${b.agent}" ${why}`);
  return new UserError(`models "${a.model ?? "none"}" and "${b.model ?? "none"}" ${why}`);
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
