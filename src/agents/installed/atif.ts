import { ATIF_VERSION, type AtifStep, type Trajectory } from "../llm-loop/trajectory.js";
import type { TrajectoryMeta } from "./types.js";

/** A step before numbering: converters collect these and `toTrajectory` numbers and totals them. */
export type DraftStep = Omit<AtifStep, "step_id">;

export interface DraftUsage {
  prompt: number;
  completion: number;
  cached: number;
  costUsd?: number;
  reasoning?: number;
}

export function metrics(u: DraftUsage): NonNullable<AtifStep["metrics"]> {
  return {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    cached_tokens: u.cached,
    cost_usd: u.costUsd ?? 0,
    ...(u.reasoning === undefined ? {} : { extra: { reasoning_tokens: u.reasoning } }),
  };
}

/** Numbers the steps and sums their metrics into the final ones. */
export function toTrajectory(
  meta: TrajectoryMeta,
  sessionId: string,
  drafts: DraftStep[],
  source: string,
): Trajectory {
  const steps = drafts.map((d, i) => ({ step_id: i + 1, ...d }));
  let p = 0;
  let c = 0;
  let k = 0;
  let usd = 0;
  for (const s of steps) {
    p += s.metrics?.prompt_tokens ?? 0;
    c += s.metrics?.completion_tokens ?? 0;
    k += s.metrics?.cached_tokens ?? 0;
    usd += s.metrics?.cost_usd ?? 0;
  }
  return {
    schema_version: ATIF_VERSION,
    session_id: sessionId,
    agent: { name: meta.agentName, version: meta.version, model_name: meta.modelId },
    steps,
    final_metrics: {
      total_prompt_tokens: p,
      total_completion_tokens: c,
      total_cached_tokens: k,
      total_cost_usd: usd,
      total_steps: steps.length,
      // Where the steps came from: the agent's own logs or the gateway's record.
      extra: { source },
    },
  };
}

/** Attaches a tool result to the step that made the call (the latest one holding that id). */
export function attachResult(steps: DraftStep[], callId: string, content: string): boolean {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    if (s?.tool_calls?.some((t) => t.tool_call_id === callId)) {
      const results = s.observation?.results ?? [];
      results.push({ source_call_id: callId, content });
      s.observation = { results };
      return true;
    }
  }
  return false;
}

/** A JSON object's field as a record, or an empty one (converters read logs defensively). */
export function asRecord(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0;
}

export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** Parsed lines of a JSONL text; lines that are not JSON objects are skipped. */
export function jsonLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === "object" && v !== null && !Array.isArray(v)) out.push(v as Record<string, unknown>);
    } catch {
      // A line cut by a kill mid-write.
    }
  }
  return out;
}

/** A tool result's content (a string or a list of text blocks) as text. */
export function contentText(v: unknown): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) {
    return v
      .map((b) => {
        const r = asRecord(b);
        return typeof r.text === "string" ? r.text : typeof r.output === "string" ? r.output : "";
      })
      .filter((t) => t !== "")
      .join("\n");
  }
  return v === undefined || v === null ? "" : JSON.stringify(v);
}
