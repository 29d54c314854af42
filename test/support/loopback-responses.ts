/**
 * The OpenAI Responses wire format of the loopback server: one JSON body, or the SSE events a
 * Responses client reads (response.created … response.completed, with function_call items).
 */
import { type Answer, parts } from "./loopback-script.js";

export interface ResponsesAnswer {
  text: string;
  calls: { id: string; name: string; args: string }[];
  usage: { input: number; output: number; cached: number; reasoning: number };
}

function event(type: string, seq: number, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq, ...data })}\n\n`;
}

export function responsesFrames(a: ResponsesAnswer, model: string, n: number, stream: boolean): string[] {
  const usage = {
    input_tokens: a.usage.input,
    input_tokens_details: { cached_tokens: a.usage.cached },
    output_tokens: a.usage.output,
    output_tokens_details: { reasoning_tokens: a.usage.reasoning },
    total_tokens: a.usage.input + a.usage.output,
  };
  const message = {
    type: "message" as const,
    id: `msg_${n}`,
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text: a.text, annotations: [] }],
  };
  const calls = a.calls.map((c, i) => ({
    type: "function_call" as const,
    id: `fc_${n}_${i + 1}`,
    call_id: c.id,
    name: c.name,
    arguments: c.args,
    status: "completed",
  }));
  const output = [...(a.text.length > 0 || calls.length === 0 ? [message] : []), ...calls];
  const head = {
    id: `resp_${n}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model,
    error: null,
    incomplete_details: null,
  };
  const done = { ...head, status: "completed", output, usage };
  if (!stream) return [JSON.stringify(done)];

  let seq = 0;
  const out: string[] = [];
  const push = (type: string, data: Record<string, unknown>): void => {
    out.push(event(type, seq++, data));
  };
  const pending = { ...head, status: "in_progress", output: [], usage: null };
  push("response.created", { response: pending });
  push("response.in_progress", { response: pending });
  output.forEach((item, output_index) => {
    if (item.type === "message") {
      const item_id = item.id;
      const part = { type: "output_text", text: "", annotations: [] };
      push("response.output_item.added", {
        output_index,
        item: { ...item, status: "in_progress", content: [] },
      });
      push("response.content_part.added", { item_id, output_index, content_index: 0, part });
      // Two deltas, so a client's text assembly is exercised.
      const mid = Math.floor(a.text.length / 2);
      for (const delta of [a.text.slice(0, mid), a.text.slice(mid)].filter((d) => d.length > 0))
        push("response.output_text.delta", { item_id, output_index, content_index: 0, delta, logprobs: [] });
      push("response.output_text.done", {
        item_id,
        output_index,
        content_index: 0,
        text: a.text,
        logprobs: [],
      });
      push("response.content_part.done", {
        item_id,
        output_index,
        content_index: 0,
        part: { ...part, text: a.text },
      });
    } else {
      push("response.output_item.added", {
        output_index,
        item: { ...item, arguments: "", status: "in_progress" },
      });
      push("response.function_call_arguments.delta", {
        item_id: item.id,
        output_index,
        delta: item.arguments,
      });
      push("response.function_call_arguments.done", {
        item_id: item.id,
        output_index,
        arguments: item.arguments,
      });
    }
    push("response.output_item.done", { output_index, item });
  });
  push("response.completed", { response: done });
  return out;
}

/** A scripted answer in the shape the Responses frames take. */
export function responsesAnswer(r: Answer) {
  const u = r.usage ?? {};
  return {
    ...parts(r),
    usage: { input: u.input ?? 0, output: u.output ?? 0, cached: u.cached ?? 0, reasoning: u.reasoning ?? 0 },
  };
}
