import { type Answer, parts } from "./loopback-script.js";
import { sse } from "./loopback-sse.js";

/** The Anthropic Messages wire format of the loopback server: one JSON message, or its events. */
export function anthropicFrames(r: Answer, model: string, seq: number, stream: boolean): string[] {
  const { text: t, calls } = parts(r);
  const u = r.usage ?? {};
  const cached = u.cached ?? 0;
  const written = u.cacheWrite ?? 0;
  // Anthropic reports uncached input separately from cache reads and writes.
  const usage = {
    input_tokens: Math.max(0, (u.input ?? 0) - cached - written),
    output_tokens: u.output ?? 0,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: written,
    ...(u.reasoning ? { output_tokens_details: { thinking_tokens: u.reasoning } } : {}),
  };
  const stop = calls.length > 0 ? "tool_use" : "end_turn";
  const content = [
    ...(t.length > 0 || calls.length === 0 ? [{ type: "text", text: t }] : []),
    ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: safeJson(c.args) })),
  ];
  const msg = { id: `msg_${seq}`, type: "message", role: "assistant", model, stop_sequence: null };
  if (!stream) return [JSON.stringify({ ...msg, content, stop_reason: stop, usage })];
  const out = [
    sse(
      { type: "message_start", message: { ...msg, content: [], stop_reason: null, usage } },
      "message_start",
    ),
  ];
  let index = 0;
  if (t.length > 0 || calls.length === 0) {
    out.push(
      sse(
        { type: "content_block_start", index, content_block: { type: "text", text: "" } },
        "content_block_start",
      ),
    );
    if (t.length > 0)
      out.push(
        sse(
          { type: "content_block_delta", index, delta: { type: "text_delta", text: t } },
          "content_block_delta",
        ),
      );
    out.push(sse({ type: "content_block_stop", index }, "content_block_stop"));
    index++;
  }
  for (const c of calls) {
    out.push(
      sse(
        {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: c.id, name: c.name, input: {} },
        },
        "content_block_start",
      ),
      sse(
        { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: c.args } },
        "content_block_delta",
      ),
      sse({ type: "content_block_stop", index }, "content_block_stop"),
    );
    index++;
  }
  out.push(
    sse(
      {
        type: "message_delta",
        delta: { stop_reason: stop, stop_sequence: null },
        usage: {
          output_tokens: u.output ?? 0,
          ...(u.reasoning ? { output_tokens_details: { thinking_tokens: u.reasoning } } : {}),
        },
      },
      "message_delta",
    ),
    sse({ type: "message_stop" }, "message_stop"),
  );
  return out;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return { _raw: s };
  }
}
