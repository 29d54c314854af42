import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.js";
import type { Outcome } from "../core/trial-result.js";
import { cmp } from "./order.js";
import type { AnalysisTrial } from "./summary-types.js";

/**
 * The fields of Harbor's trial `result.json` (its TrialResult model) that analysis reads. Harbor
 * writes many more; they are ignored. Optional fields are those Harbor itself leaves null.
 */
const nullish = <T extends z.ZodType>(t: T) => t.nullable().optional();
const count = nullish(z.number().nonnegative());

export const harborTrialSchema = z.object({
  task_name: z.string().min(1),
  trial_name: z.string().min(1),
  agent_info: z.object({
    name: z.string().min(1),
    version: nullish(z.string()),
    model_info: nullish(z.object({ name: z.string().min(1), provider: nullish(z.string()) })),
  }),
  agent_result: nullish(
    z.object({
      n_input_tokens: count,
      n_cache_tokens: count,
      n_output_tokens: count,
      cost_usd: count,
    }),
  ),
  verifier_result: nullish(z.object({ rewards: nullish(z.record(z.string(), z.number())) })),
  exception_info: nullish(
    z.object({ exception_type: z.string().min(1), exception_message: nullish(z.string()) }),
  ),
  started_at: nullish(z.string()),
  finished_at: nullish(z.string()),
});
export type HarborTrial = z.infer<typeof harborTrialSchema>;

/**
 * Harbor's exception types by what they mean for a score. The agent's time running out keeps the
 * reward the verifier gave afterwards; a verifier that failed leaves no reward (R = 0, counted);
 * machinery that failed before the agent could work is not the agent's failure (excluded).
 * Any other exception is the agent's (R = 0 when no reward), as Harbor counts it.
 */
const AGENT_TIMEOUT = new Set(["AgentTimeoutError"]);
const GRADING = new Set([
  "VerifierTimeoutError",
  "RewardFileNotFoundError",
  "RewardFileEmptyError",
  "VerifierOutputParseError",
  "AddTestsDirError",
  "DownloadVerifierDirError",
  "LonghaulGradingError",
]);
const INFRA = new Set([
  "EnvironmentStartTimeoutError",
  "EnvironmentBuildTimeoutError",
  "AgentSetupTimeoutError",
  "DockerStartupError",
  "CancelledError",
  "LonghaulInfraError",
]);

export function outcomeOfException(type: string): Outcome {
  if (AGENT_TIMEOUT.has(type)) return "agent_timeout";
  if (GRADING.has(type)) return "grading_error";
  if (INFRA.has(type)) return "infra_error";
  return "agent_error";
}

export interface SkippedTrial {
  file: string;
  reason: string;
}

export interface HarborJob {
  dir: string;
  trials: AnalysisTrial[];
  /** Trial result files that could not be read, each with why; the others are kept. */
  skipped: SkippedTrial[];
}

/** True when `path` is a folder (a Harbor job), not a results file. */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Reads a Harbor job folder: every `<trial>/result.json` below it (a folder holding a trial's
 * result.json directly is read as a job of one trial). A file that cannot be read or does not
 * match is skipped with its reason; no readable trial at all is a UserError.
 */
export function readHarborJob(dir: string): HarborJob {
  if (!isFolder(dir)) throw new UserError(`${dir}: not a folder (expected a Harbor job folder)`);
  const files = trialFiles(dir);
  if (files.length === 0) {
    throw new UserError(
      `${dir}: no trial result.json found (a Harbor job folder holds one folder per trial, each with a result.json)`,
    );
  }
  const parsed: { file: string; trial: HarborTrial }[] = [];
  const skipped: SkippedTrial[] = [];
  for (const file of files) {
    const r = parseHarborTrial(file);
    if ("reason" in r) skipped.push(r);
    else parsed.push({ file, trial: r.trial });
  }
  const trials: AnalysisTrial[] = [];
  for (const p of withAttempts(parsed)) {
    const t = toAnalysisTrial(p.trial, p.attempt, basename(dir));
    if (typeof t === "string") skipped.push({ file: p.file, reason: t });
    else trials.push(t);
  }
  if (trials.length === 0) {
    throw new UserError(
      `${dir}: none of its ${files.length} trial result(s) could be read: ${skipped
        .slice(0, 3)
        .map((s) => `${s.file}: ${s.reason}`)
        .join("; ")}`,
    );
  }
  return { dir, trials, skipped };
}

function trialFiles(dir: string): string[] {
  const own = join(dir, "result.json");
  if (existsSync(own) && looksLikeTrial(own)) return [own];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, "result.json")))
    .map((e) => join(dir, e.name, "result.json"))
    .sort(cmp);
}

/** A job's own result.json has no trial_name; a trial's always has one. */
function looksLikeTrial(file: string): boolean {
  try {
    const v: unknown = JSON.parse(readFileSync(file, "utf8"));
    return typeof v === "object" && v !== null && "trial_name" in v;
  } catch {
    return false;
  }
}

export function parseHarborTrial(file: string): { trial: HarborTrial } | SkippedTrial {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    return { file, reason: `not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const r = harborTrialSchema.safeParse(value);
  if (r.success) return { trial: r.data };
  const issue = r.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? "(top level)" : issue.path.join(".");
  return { file, reason: `field ${field}: ${issue?.message ?? "invalid"}` };
}

/**
 * Harbor names trials `<task>__<random>` and records no attempt number, so attempts are numbered
 * per (agent, model, task) in the order the trials started (then by name).
 */
function withAttempts<T extends { file: string; trial: HarborTrial }>(
  items: readonly T[],
): (T & { attempt: number })[] {
  const sorted = [...items].sort(
    (a, b) =>
      cmp(a.trial.started_at ?? "", b.trial.started_at ?? "") || cmp(a.trial.trial_name, b.trial.trial_name),
  );
  const seen = new Map<string, number>();
  return sorted.map((it) => {
    const key = `${it.trial.agent_info.name}\u0000${modelOf(it.trial)}\u0000${it.trial.task_name}`;
    const attempt = seen.get(key) ?? 0;
    seen.set(key, attempt + 1);
    return { ...it, attempt };
  });
}

/** longhaul's `provider:model` when Harbor names the provider. */
function modelOf(t: HarborTrial): string | null {
  const m = t.agent_info.model_info;
  if (m === null || m === undefined) return null;
  return m.provider ? `${m.provider}:${m.name}` : m.name;
}

/**
 * R from Harbor's rewards: the `reward` key when there is one, else the only key, else the mean
 * of all keys (each recorded as a subtask). longhaul's metrics need R in [0, 1]; a reward outside
 * it makes the trial unreadable (a string: the reason).
 */
function rewardOf(
  rewards: Record<string, number>,
): { reward: number; subtasks: AnalysisTrial["subtasks"] } | string {
  const keys = Object.keys(rewards).sort(cmp);
  const out = (k: string) => `verifier_result.rewards.${k} is ${rewards[k]}, outside [0, 1]`;
  for (const k of keys) {
    const v = rewards[k] as number;
    if (!(v >= 0 && v <= 1)) return out(k);
  }
  if ("reward" in rewards) return { reward: rewards.reward as number, subtasks: [] };
  if (keys.length === 1) return { reward: rewards[keys[0] as string] as number, subtasks: [] };
  const subtasks = keys.map((id) => ({ id, weight: 1, score: rewards[id] as number }));
  return { reward: subtasks.reduce((s, x) => s + x.score, 0) / subtasks.length, subtasks };
}

export function toAnalysisTrial(t: HarborTrial, attempt: number, jobId: string): AnalysisTrial | string {
  const rewards = t.verifier_result?.rewards ?? null;
  const scored = rewards === null || Object.keys(rewards).length === 0 ? null : rewardOf(rewards);
  if (typeof scored === "string") return scored;
  const exc = t.exception_info ?? null;
  let outcome: Outcome = exc === null ? "completed" : outcomeOfException(exc.exception_type);
  const gradingErrors: string[] = [];
  let reward = scored?.reward ?? null;
  if (outcome === "grading_error" || outcome === "infra_error") reward = null;
  if (outcome === "grading_error" && exc !== null) {
    gradingErrors.push(`${exc.exception_type}: ${exc.exception_message ?? ""}`.trim());
  }
  // A trial Harbor finished without an exception and without a reward was not graded.
  if (exc === null && scored === null) {
    outcome = "grading_error";
    gradingErrors.push("no verifier_result.rewards in result.json");
  }
  const model = modelOf(t);
  const a = t.agent_result ?? null;
  const cost = a?.cost_usd ?? null;
  return {
    task: { name: t.task_name, category: "uncategorized" },
    agent: t.agent_info.name,
    model,
    attempt,
    outcome,
    // Harbor's agent stopped on its own when it ended without an exception (no timeout).
    self_terminated: outcome === "completed",
    reward,
    subtasks: scored?.subtasks ?? [],
    usage: {
      input_tokens: a?.n_input_tokens ?? 0,
      output_tokens: a?.n_output_tokens ?? 0,
      cost_usd: cost ?? 0,
      turns: 0,
      // No cost from an agent with a model is an unknown cost, not $0; an agent without one spent nothing.
      cost_known: cost !== null || model === null,
    },
    job_id: jobId,
    grading_errors: gradingErrors,
    error: exc === null ? null : { kind: exc.exception_type, message: exc.exception_message ?? "" },
  };
}
