import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Trajectory } from "../llm-loop/trajectory.js";
import { asRecord, type DraftStep, jsonLines, metrics, num, str, toTrajectory } from "./atif.js";
import type { TrajectoryMeta } from "./types.js";

/**
 * The model gateway's record of a trial's exchanges (`<trial>/agent/gateway.jsonl`, docs/gateway.md),
 * read when an agent left no session log of its own: one agent step per answered call, in
 * whichever of the three APIs it was given, JSON or SSE, with the gateway's token count.
 */
export const GATEWAY_RECORD = "gateway.jsonl";

export function gatewayTrajectory(logDir: string, meta: TrajectoryMeta): Trajectory | null {
  const path = join(logDir, GATEWAY_RECORD);
  if (!existsSync(path)) return null;
  const steps: DraftStep[] = [];
  for (const ex of jsonLines(readFileSync(path, "utf8"))) {
    if (ex.status !== 200 || (ex.refused !== null && ex.refused !== undefined)) continue;
    const raw = asRecord(ex.response).body;
    const ts = str(ex.time) || new Date().toISOString();
    const answer = typeof raw === "string" ? answerOfSse(raw) : answerOf(asRecord(raw));
    if (answer === null) continue;
    // The gateway's own count wins over what the body says (a cut SSE body may have lost it).
    const u = asRecord(ex.usage);
    if (ex.usage !== null && ex.usage !== undefined) {
      answer.usage = {
        prompt: num(u.input_tokens),
        completion: num(u.output_tokens),
        cached: num(u.cached_tokens),
      };
    }
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

/** An SSE answer (as far as the record kept it) put back together. */
function answerOfSse(text: string): ReturnType<typeof answerOf> {
  const events: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    try {
      events.push(asRecord(JSON.parse(line.slice(5).trim())));
    } catch {
      // [DONE], or a frame cut by the record's size limit.
    }
  }
  const done = events.find((e) => e.type === "response.completed");
  if (done !== undefined) return answerOf(asRecord(done.response));
  let out = "";
  const calls = new Map<number, { id: string; name: string; args: string }>();
  const call = (i: number) => {
    const c = calls.get(i) ?? { id: "", name: "", args: "" };
    calls.set(i, c);
    return c;
  };
  for (const e of events) {
    if (Array.isArray(e.choices)) {
      const d = asRecord(asRecord(e.choices[0]).delta);
      out += str(d.content);
      for (const tc of Array.isArray(d.tool_calls) ? d.tool_calls.map(asRecord) : []) {
        const c = call(num(tc.index));
        const f = asRecord(tc.function);
        c.id ||= str(tc.id);
        c.name ||= str(f.name);
        c.args += str(f.arguments);
      }
    } else if (e.type === "content_block_start") {
      const b = asRecord(e.content_block);
      if (b.type === "tool_use") Object.assign(call(num(e.index)), { id: str(b.id), name: str(b.name) });
    } else if (e.type === "content_block_delta") {
      const d = asRecord(e.delta);
      if (d.type === "text_delta") out += str(d.text);
      else if (d.type === "input_json_delta") call(num(e.index)).args += str(d.partial_json);
    } else if (e.type === "response.output_text.delta") {
      out += str(e.delta);
    }
  }
  const list = [...calls.values()].map((c) => {
    let args: Record<string, unknown>;
    try {
      args = asRecord(JSON.parse(c.args || "{}"));
    } catch {
      args = { _raw: c.args };
    }
    return { tool_call_id: c.id, function_name: c.name, arguments: args };
  });
  if (out === "" && list.length === 0) return null;
  return { text: out, calls: list, usage: { prompt: 0, completion: 0, cached: 0 } };
}
