import { type Answer, parts } from "./loopback-script.js";
import { sse } from "./loopback-sse.js";

/** The OpenAI Chat Completions wire format of the loopback server: one JSON body, or its chunks. */
export function openaiFrames(r: Answer, model: string, seq: number, stream: boolean): string[] {
  const { text: t, calls } = parts(r);
  const u = r.usage ?? {};
  const usage = {
    prompt_tokens: u.input ?? 0,
    completion_tokens: u.output ?? 0,
    total_tokens: (u.input ?? 0) + (u.output ?? 0),
    prompt_tokens_details: { cached_tokens: u.cached ?? 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
  };
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const head = { id: `chatcmpl-${seq}`, created: Math.floor(Date.now() / 1000), model };
  const toolCalls = calls.map((c, index) => ({
    index,
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: c.args },
  }));
  if (!stream) {
    const message = { role: "assistant", content: t, ...(calls.length ? { tool_calls: toolCalls } : {}) };
    return [
      JSON.stringify({
        ...head,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    ];
  }
  const chunk = (delta: unknown, finish_reason: string | null) =>
    sse({ ...head, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason }] });
  const out = [chunk({ role: "assistant", content: "" }, null)];
  // Split text in two to exercise delta assembly.
  const mid = Math.floor(t.length / 2);
  if (t.length > 0)
    out.push(chunk({ content: t.slice(0, mid) }, null), chunk({ content: t.slice(mid) }, null));
  for (const tc of toolCalls) out.push(chunk({ tool_calls: [tc] }, null));
  out.push(chunk({}, finish));
  out.push(sse({ ...head, object: "chat.completion.chunk", choices: [], usage }));
  out.push("data: [DONE]\n\n");
  return out;
}
