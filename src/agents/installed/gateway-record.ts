import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Trajectory } from "../llm-loop/trajectory.js";
import { asRecord, type DraftStep, jsonLines, metrics, num, str, toTrajectory } from "./atif.js";
import type { TrajectoryMeta } from "./types.js";

/**
 * The model gateway's record of a trial's exchanges (`<trial>/agent/gateway-exchanges.jsonl`, one
 * `{time, request: {body}, response: {body}}` per call), read when an agent left no session log
 * of its own: one agent step per answer, in whichever of the three APIs it was given.
 */
export const GATEWAY_RECORD = "gateway-exchanges.jsonl";

export function gatewayTrajectory(logDir: string, meta: TrajectoryMeta): Trajectory | null {
  const path = join(logDir, GATEWAY_RECORD);
  if (!existsSync(path)) return null;
  const steps: DraftStep[] = [];
  for (const ex of jsonLines(readFileSync(path, "utf8"))) {
    const body = asRecord(asRecord(ex.response).body);
    const ts = str(ex.time) || new Date().toISOString();
    const answer = answerOf(body);
    if (answer === null) continue;
    steps.push({
      timestamp: ts,
      source: "agent",
      model_name: meta.modelId,
      message: answer.text,
      ...(answer.calls.length > 0 ? { tool_calls: answer.calls } : {}),
      metrics: metrics(answer.usage),
    });
  }
  if (steps.length === 0) return null;
  return toTrajectory(meta, `${meta.agentName}-gateway`, steps, "model gateway record");
}

type Call = NonNullable<DraftStep["tool_calls"]>[number];

function answerOf(
  b: Record<string, unknown>,
): { text: string; calls: Call[]; usage: { prompt: number; completion: number; cached: number } } | null {
  const u = asRecord(b.usage);
  const texts: string[] = [];
  const calls: Call[] = [];
  const args = (s: unknown): Record<string, unknown> => {
    try {
      return asRecord(typeof s === "string" ? JSON.parse(s) : s);
    } catch {
      return { _raw: s };
    }
  };
  if (Array.isArray(b.choices)) {
    // OpenAI chat completions.
    const m = asRecord(asRecord(b.choices[0]).message);
    texts.push(str(m.content));
    for (const tc of Array.isArray(m.tool_calls) ? m.tool_calls.map(asRecord) : []) {
      const f = asRecord(tc.function);
      calls.push({ tool_call_id: str(tc.id), function_name: str(f.name), arguments: args(f.arguments) });
    }
    const cached = num(asRecord(u.prompt_tokens_details).cached_tokens);
    return {
      text: texts.join(""),
      calls,
      usage: { prompt: num(u.prompt_tokens), completion: num(u.completion_tokens), cached },
    };
  }
  if (Array.isArray(b.output)) {
    // OpenAI Responses.
    for (const item of b.output.map(asRecord)) {
      if (item.type === "message" && Array.isArray(item.content)) {
        for (const c of item.content.map(asRecord)) texts.push(str(c.text));
      } else if (item.type === "function_call") {
        calls.push({
          tool_call_id: str(item.call_id),
          function_name: str(item.name),
          arguments: args(item.arguments),
        });
      }
    }
    const cached = num(asRecord(u.input_tokens_details).cached_tokens);
    return {
      text: texts.join(""),
      calls,
      usage: { prompt: num(u.input_tokens), completion: num(u.output_tokens), cached },
    };
  }
  if (Array.isArray(b.content)) {
    // Anthropic messages.
    for (const c of b.content.map(asRecord)) {
      if (c.type === "text") texts.push(str(c.text));
      else if (c.type === "tool_use")
        calls.push({ tool_call_id: str(c.id), function_name: str(c.name), arguments: asRecord(c.input) });
    }
    const cached = num(u.cache_read_input_tokens);
    const prompt = num(u.input_tokens) + cached + num(u.cache_creation_input_tokens);
    return { text: texts.join(""), calls, usage: { prompt, completion: num(u.output_tokens), cached } };
  }
  return null;
}
