import { BrokenStream } from "./sse-events.js";
import { sseToWholeAnswer } from "./sse-to-whole.js";
import { warnOncePerServer } from "./warn-once.js";
import type { WireFormat } from "./whole-answer.js";

/** SSE text starts with a field (`data:`, `event:`, `id:`, `retry:`) or a comment (`:`). */
export const SSE_START = /^\s*(?:data|event|id|retry)?:/;

/** Whether a successful answer is labelled as an SSE stream. */
export function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream");
}

/** The SSE answer to a request without `stream`, as a JSON reader is to see it. */
export type StreamedAnswer =
  /** The whole JSON answer the events carry, labelled `application/json`. */
  | { kind: "assembled"; response: Response }
  /** A stream that is not a whole answer (cut short, not JSON, an error event): to be retried. */
  | { kind: "broken"; reason: string };

/**
 * Turns `text`, the SSE body of `response`, into the JSON answer the API returns without `stream`
 * (a server that streams whatever it is asked), or says why it cannot stand for one.
 */
export function assembleStreamedAnswer(response: Response, text: string, wire: WireFormat): StreamedAnswer {
  let json: string;
  try {
    json = sseToWholeAnswer(wire, text);
  } catch (e) {
    if (!(e instanceof BrokenStream)) throw e;
    return {
      kind: "broken",
      reason: `request without "stream" answered with a broken SSE stream: ${e.message}`,
    };
  }
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  // The body is no longer the one these described.
  headers.delete("content-length");
  headers.delete("content-encoding");
  return { kind: "assembled", response: new Response(json, { status: response.status, headers }) };
}

/**
 * Says once a process, for each server, that it answered a request without `stream` with SSE:
 * the answer is used, but the user may want `stream=true` (or a server that honours `stream`).
 */
export function warnStreamedAnswer(url: string): void {
  warnOncePerServer(
    "streamed-answer",
    url,
    (origin) =>
      `warning: ${origin} answered a request without "stream": true with SSE events; ` +
      "each answer is assembled into the API's JSON answer (set stream=true to ask for SSE)",
  );
}
