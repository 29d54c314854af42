import type { RecordedRequest } from "./loopback-script.js";

/** One SSE event, with its `event:` line when the API names its events. */
export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
}

/** A stream that begins with status 200 and then carries the API's error event. */
export function streamErrorFrames(format: RecordedRequest["format"], errorType: string): string {
  const message = `scripted ${errorType}`;
  if (format === "anthropic") {
    const message_ = { id: "msg_e", type: "message", role: "assistant", model: "m", content: [] };
    return (
      sse(
        { type: "message_start", message: { ...message_, usage: { input_tokens: 1, output_tokens: 0 } } },
        "message_start",
      ) + sse({ type: "error", error: { type: errorType, message } }, "error")
    );
  }
  if (format === "responses")
    return sse({ type: "error", code: errorType, message, param: null, sequence_number: 0 });
  const head = { id: "chatcmpl-e", object: "chat.completion.chunk", created: 0, model: "m" };
  return (
    sse({
      ...head,
      choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
    }) + sse({ error: { message, type: errorType, code: null } })
  );
}
