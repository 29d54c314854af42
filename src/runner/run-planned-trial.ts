import { rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { emptyUsage, errorMessage, InfraError, type TrialResult, UserError } from "../core/index.js";
import type { SandboxProvider } from "../sandbox/types.js";
import type { JobConfig } from "../store/index.js";
import type { Task } from "../task/types.js";
import type { ProgressSink } from "./progress.js";
import { runTrial, TrialInterrupted } from "./run-trial.js";
import type { PreparedTask } from "./task-image.js";
import type { PlannedTrial } from "./trial-plan.js";

/** What one planned trial needs from its job's config (a local job's config, or a queued trial's). */
export type TrialJobSettings = Pick<
  JobConfig,
  "job_id" | "retries" | "agent_options" | "timeout_multiplier" | "until_timeout"
>;

export interface PlannedTrialRun {
  config: TrialJobSettings;
  ready: Extract<PreparedTask, { ok: true }>;
  planned: PlannedTrial;
  trialDir: string;
  provider: SandboxProvider;
  progress: Pick<ProgressSink, "trialRetry">;
  signal: AbortSignal;
}

/**
 * Runs one planned trial, retrying infrastructure failures; returns null when the job was
 * interrupted. A local job and a queue worker both run trials through here, so a trial gives the
 * same result wherever it runs.
 */
export async function runPlannedTrial(r: PlannedTrialRun): Promise<TrialResult | null> {
  const { config, planned, signal } = r;
  const { task, image } = r.ready;
  // Each attempt's reason, so a trial that failed every time says whether it was one cause or several.
  const reasons: string[] = [];
  for (let attempt = 0; attempt <= config.retries; attempt++) {
    if (signal.aborted) return null;
    // A retry starts from an empty folder: the failed attempt's logs (an agent's files, a
    // half-copied /logs) would otherwise lie beside this attempt's, as if one run had written
    // both, and keep the space a full disk needs back.
    if (attempt > 0) rmSync(r.trialDir, { recursive: true, force: true });
    try {
      const result = await runTrial({
        jobId: config.job_id,
        trialId: planned.trialId,
        trialDir: r.trialDir,
        task,
        agent: planned.agent,
        agentOptions: config.agent_options,
        model: planned.model,
        attempt: planned.attempt,
        seed: planned.seed,
        provider: r.provider,
        timeoutMultiplier: config.timeout_multiplier,
        signal,
        untilTimeout: config.until_timeout === true,
        image,
      });
      return { ...result, infra_retries: attempt };
    } catch (e) {
      if (e instanceof TrialInterrupted || signal.aborted) return null;
      if (!(e instanceof InfraError) || !e.retryable) {
        if (e instanceof UserError || !(e instanceof InfraError)) throw e;
      }
      reasons.push(errorMessage(e));
      if (attempt < config.retries) {
        r.progress.trialRetry(planned.trialId, attempt + 2, errorMessage(e));
        // 1 s, 2 s, 4 s …: a machine busy enough to fail a trial is rarely free again within a second.
        // Ctrl-C ends the wait at once, rather than up to 10 s later.
        await sleep(Math.min(10_000, 1000 * 2 ** attempt), undefined, { signal }).catch(() => undefined);
      }
    }
  }
  return infraFailure(config, task, planned, attemptsMessage(reasons));
}

/** `boom` for one attempt or one repeated reason, else `attempt 1: a; attempt 2: b; …`. */
export function attemptsMessage(reasons: readonly string[]): string {
  if (new Set(reasons).size <= 1) return reasons[0] ?? "unknown infrastructure failure";
  return reasons.map((m, i) => `attempt ${i + 1}: ${m}`).join("; ");
}

/** The result recorded for a trial that could not run (infrastructure, image, task bundle). */
export function infraFailure(
  config: Pick<JobConfig, "job_id" | "retries">,
  task: Pick<Task, "name" | "checksum" | "dir"> & {
    config: { metadata: { category: string; difficulty: string } };
  },
  planned: PlannedTrial,
  message: string,
  kind = "infra",
): TrialResult {
  const now = new Date().toISOString();
  return {
    schema_version: 1,
    job_id: config.job_id,
    trial_id: planned.trialId,
    task: {
      name: task.name,
      checksum: task.checksum,
      category: task.config.metadata.category,
      difficulty: task.config.metadata.difficulty,
      path: task.dir,
    },
    agent: planned.agent,
    model: planned.model,
    attempt: planned.attempt,
    seed: planned.seed,
    timing: {
      started_at: now,
      finished_at: now,
      setup_sec: 0,
      agent_sec: 0,
      verifier_sec: 0,
      verifier_command_sec: 0,
      total_sec: 0,
    },
    outcome: "infra_error",
    self_terminated: false,
    reward: null,
    subtasks: [],
    grading_errors: [],
    usage: emptyUsage(),
    infra_retries: config.retries,
    error: { kind, message },
    stress_digest: null,
    budget_left_sec: null,
    continuation: null,
    world: null,
  };
}
