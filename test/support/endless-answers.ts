import { vi } from "vitest";
import { type EndlessReply, endless } from "./loopback-script.js";
import { sse } from "./loopback-sse.js";

/** Answers without end, for tests of the cap on what is read of one answer. */
export type EndlessApi = "chat" | "responses" | "messages";

const TEXT = "x".repeat(4096);

/** An SSE answer whose events (each a piece of text in the API's format) never stop. */
export function endlessEvents(api: EndlessApi, stopAfter: number): EndlessReply {
  const head =
    api === "messages"
      ? sse(
          {
            type: "message_start",
            message: {
              id: "msg_1",
              type: "message",
              role: "assistant",
              model: "m",
              content: [],
              usage: { input_tokens: 1, output_tokens: 0 },
            },
          },
          "message_start",
        ) + sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } })
      : "";
  const unit =
    api === "messages"
      ? sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: TEXT } })
      : api === "responses"
        ? sse({ type: "response.output_text.delta", output_index: 0, content_index: 0, delta: TEXT })
        : sse({
            id: "chatcmpl-1",
            object: "chat.completion.chunk",
            model: "m",
            choices: [{ index: 0, delta: { content: TEXT }, finish_reason: null }],
          });
  return endless({ contentType: "text/event-stream", head, unit, stopAfter });
}

/** An SSE answer that is one event line without end: no newline ever comes. */
export function endlessLine(stopAfter: number): EndlessReply {
  return endless({
    contentType: "text/event-stream",
    head: 'data: {"choices":[{"index":0,"delta":{"content":"',
    unit: "y".repeat(65536),
    stopAfter,
  });
}

/** A JSON answer whose one string never closes. */
export function endlessJson(stopAfter: number, status = 200): EndlessReply {
  return endless({
    status,
    contentType: "application/json",
    head: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"content":"',
    unit: "z".repeat(65536),
    stopAfter,
  });
}

/**
 * Counts the body bytes the host reads through `fetch` (longhaul's client and gateway both use
 * the global one) until the spy is restored: what was held in the host, whatever the server sent
 * into socket buffers.
 */
export function meterFetch(): { bytes: number } {
  const meter = { bytes: 0 };
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const r = await real(input, init);
    if (r.body === null) return r;
    const counted = r.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, c) => {
          meter.bytes += chunk.byteLength;
          c.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: r.status, statusText: r.statusText, headers: r.headers });
  });
  return meter;
}
