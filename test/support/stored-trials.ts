import { emptyUsage, type TrialResult } from "../../src/core/index.js";
import type { JobConfig } from "../../src/store/index.js";

/**
 * A finished trial as the store records it, with plain defaults (a completed oracle trial of one
 * minute, no subtasks, no usage): for tests and benches that record trials by hand and look at a
 * few fields. `over` sets those fields.
 */
export function storedTrial(
  over: Partial<TrialResult> & Pick<TrialResult, "job_id" | "trial_id">,
): TrialResult {
  return {
    schema_version: 1,
    task: { name: "t", checksum: "c".repeat(64), category: "data", difficulty: null, path: "/nonexistent" },
    agent: "oracle",
    model: null,
    attempt: 0,
    seed: 1,
    timing: {
      started_at: "2026-01-01T00:00:00.000Z",
      finished_at: "2026-01-01T00:01:00.000Z",
      setup_sec: 1,
      agent_sec: 50,
      verifier_sec: 9,
      verifier_command_sec: 8,
      total_sec: 60,
    },
    outcome: "completed",
    self_terminated: false,
    reward: 0,
    subtasks: [],
    grading_errors: [],
    usage: emptyUsage(),
    infra_retries: 0,
    error: null,
    stress_digest: null,
    budget_left_sec: null,
    continuation: null,
    world: null,
    ...over,
  };
}

/** The task field of a stored trial: `name` in category `category` at `path`. */
export function storedTask(name: string, category = "data", path = "/nonexistent"): TrialResult["task"] {
  return { name, checksum: "c".repeat(64), category, difficulty: null, path };
}

/**
 * A job's config with no task folders behind it (its trials are recorded by hand), created on
 * 2026-01-01; `over` sets the agents, models and the rest a test needs.
 */
export function storedJobConfig(over: Partial<JobConfig> & Pick<JobConfig, "job_id">): JobConfig {
  return {
    schema_version: 1,
    created_at: "2026-01-01T00:00:00.000Z",
    tasks: [],
    agents: ["oracle"],
    models: [null],
    attempts: 1,
    concurrency: 1,
    timeout_multiplier: 1,
    retries: 0,
    seed: 1,
    sandbox: "bwrap",
    agent_options: {},
    ...over,
  };
}
