import { Rng } from "../core/rng.js";
import { emptyUsage, type Outcome, type TrialResult } from "../core/trial-result.js";

/** How many synthetic trials, their seed, and how many models, tasks and categories. */
export interface SyntheticOptions {
  trials: number;
  seed: number;
  models?: number;
  tasks?: number;
  categories?: number;
}

/**
 * Plausible, reproducible trials for demos, tests of the renderers and benchmarks: models of
 * rising skill, tasks of varying difficulty in a few categories, three weighted subtasks each,
 * and every outcome represented. Not a model of any real benchmark.
 */
export function syntheticTrials(opts: SyntheticOptions): TrialResult[] {
  const rng = new Rng(opts.seed);
  const models = opts.models ?? 4;
  const tasks = opts.tasks ?? 12;
  const categories = opts.categories ?? 3;
  const difficulty = Array.from({ length: tasks }, () => rng.next());
  const out: TrialResult[] = [];
  for (let i = 0; i < opts.trials; i++) {
    const m = i % models;
    const t = Math.floor(i / models) % tasks;
    const attempt = Math.floor(i / (models * tasks));
    const skill = (m + 1) / (models + 1);
    const base = Math.max(
      0,
      Math.min(1, skill + 0.3 - (difficulty[t] as number) * 0.5 + (rng.next() - 0.4) * 0.6),
    );
    const subtasks = [0.2, 0.3, 0.5].map((weight, s) => ({
      id: `s${s + 1}`,
      weight,
      kind: s === 2 ? ("continuous" as const) : ("binary" as const),
      visibility: s === 0 ? ("public" as const) : ("hidden" as const),
      score: s === 2 ? base : rng.next() < base + 0.2 ? 1 : 0,
      error: null,
      message: null,
    }));
    const reward = subtasks.reduce((acc, s) => acc + s.weight * s.score, 0);
    const roll = rng.next();
    const outcome: Outcome =
      roll < 0.02
        ? "grading_error"
        : roll < 0.04
          ? "infra_error"
          : roll < 0.06
            ? "agent_error"
            : roll < 0.4
              ? "agent_timeout"
              : "completed";
    const turns = rng.int(20, 300);
    out.push({
      schema_version: 1,
      job_id: "synthetic",
      trial_id: `t${i}`,
      task: {
        name: `task-${String(t).padStart(3, "0")}`,
        checksum: "0",
        category: `cat-${t % categories}`,
        difficulty: null,
        path: `tasks/task-${t}`,
      },
      agent: "harness",
      model: `model-${String.fromCharCode(97 + (m % 26))}${m >= 26 ? m : ""}`,
      attempt,
      seed: rng.int(0, 1_000_000),
      timing: {
        started_at: "2026-01-01T00:00:00Z",
        finished_at: "2026-01-01T01:00:00Z",
        setup_sec: 1,
        agent_sec: 3600,
        verifier_sec: 10,
        verifier_command_sec: 9,
        total_sec: 3611,
      },
      outcome,
      self_terminated: outcome === "completed",
      reward: outcome === "grading_error" ? null : reward,
      subtasks,
      grading_errors: [],
      usage: {
        ...emptyUsage(),
        input_tokens: turns * 4000,
        output_tokens: turns * 300,
        turns,
        cost_usd: turns * (0.02 + m * 0.01),
      },
      infra_retries: 0,
      error: null,
      stress_digest: null,
      budget_left_sec: null,
      continuation: null,
      world: null,
    });
  }
  return out;
}
