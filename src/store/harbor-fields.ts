import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import type { TrialResult } from "../core/index.js";

/**
 * The fields Harbor's TrialResult model requires (and the ones its tools show), computed from a
 * longhaul trial result. They are written into the same result.json next to longhaul's own
 * fields: none of the names collide, Harbor ignores fields it does not know and longhaul's reader
 * drops Harbor's, so one file serves both (docs/store.md, "Harbor's tools").
 */
export function harborTrialFields(r: TrialResult, trialDir: string): Record<string, unknown> {
  const t0 = Date.parse(r.timing.started_at);
  const at = (sec: number) => (Number.isFinite(t0) ? new Date(t0 + sec * 1000).toISOString() : null);
  const setupEnd = at(r.timing.setup_sec);
  const agentEnd = at(r.timing.setup_sec + r.timing.agent_sec);
  const verifierEnd = at(r.timing.setup_sec + r.timing.agent_sec + r.timing.verifier_sec);
  const model = r.model === null ? null : splitModel(r.model);
  return {
    id: uuidFrom(`${r.job_id}/${r.trial_id}`),
    task_name: r.task.name,
    trial_name: r.trial_id,
    trial_uri: pathToFileURL(trialDir).href,
    task_id: { path: r.task.path },
    source: null,
    task_checksum: r.task.checksum,
    config: {
      task: { path: r.task.path },
      trial_name: r.trial_id,
      agent: { name: r.agent, model_name: r.model },
    },
    agent_info: { name: r.agent, version: "longhaul", model_info: model },
    agent_result: {
      n_input_tokens: r.usage.input_tokens,
      n_cache_tokens: r.usage.cached_tokens,
      n_output_tokens: r.usage.output_tokens,
      // Harbor's null cost means unknown, as longhaul's cost_known false does.
      cost_usd: r.usage.cost_known === false ? null : r.usage.cost_usd,
      metadata: { turns: r.usage.turns },
    },
    verifier_result: r.reward === null ? null : { rewards: { reward: r.reward } },
    exception_info: exceptionInfo(r),
    started_at: r.timing.started_at,
    finished_at: r.timing.finished_at,
    environment_setup: { started_at: r.timing.started_at, finished_at: setupEnd },
    agent_execution: { started_at: setupEnd, finished_at: agentEnd },
    verifier: { started_at: agentEnd, finished_at: verifierEnd },
  };
}

/**
 * Harbor's exception names where Harbor has one with the same meaning (AgentTimeoutError);
 * longhaul's own otherwise, which longhaul's Harbor reader maps back to the same outcome.
 */
const EXCEPTION_TYPES: Record<Exclude<TrialResult["outcome"], "completed">, string> = {
  agent_timeout: "AgentTimeoutError",
  agent_error: "LonghaulAgentError",
  grading_error: "LonghaulGradingError",
  infra_error: "LonghaulInfraError",
};

function exceptionInfo(r: TrialResult): Record<string, string> | null {
  if (r.outcome === "completed") return null;
  const message = r.error?.message ?? r.grading_errors[0] ?? r.outcome;
  return {
    exception_type: EXCEPTION_TYPES[r.outcome],
    exception_message: message,
    exception_traceback: "",
    occurred_at: r.timing.finished_at,
  };
}

/** Harbor's ModelInfo needs both parts; longhaul ids are `provider:model`. */
function splitModel(id: string): { name: string; provider: string } {
  const i = id.indexOf(":");
  return i <= 0 ? { name: id, provider: "unknown" } : { name: id.slice(i + 1), provider: id.slice(0, i) };
}

/** A stable UUID (version 5 layout, SHA-256 based) so rewriting a result keeps its id. */
export function uuidFrom(text: string): string {
  const h = createHash("sha256").update(text).digest("hex").slice(0, 32).split("");
  h[12] = "5";
  h[16] = ((Number.parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const jobSummarySchema = z.object({
  status: z.string().optional(),
  trials: z.number().int().nonnegative(),
  planned: z.number().int().nonnegative().optional(),
  outcomes: z.record(z.string(), z.number()).default({}),
});

/**
 * The fields Harbor's JobResult model requires, for a job's own result.json; null when the
 * summary is not the shape `run` writes (then the file is left as given).
 */
export function harborJobFields(
  jobId: string,
  createdAt: string,
  summary: unknown,
): Record<string, unknown> | null {
  const s = jobSummarySchema.safeParse(summary);
  if (!s.success) return null;
  const { trials, planned, outcomes, status } = s.data;
  // Harbor counts a trial with an exception as an error; in longhaul that is every outcome but completed.
  const errors = trials - (outcomes.completed ?? 0);
  return {
    id: uuidFrom(`job/${jobId}`),
    started_at: createdAt,
    finished_at: status === "finished" ? new Date().toISOString() : null,
    n_total_trials: planned ?? trials,
    stats: { n_trials: trials, n_errors: errors },
  };
}
