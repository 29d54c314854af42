import { APICallError } from "ai";
import { type WireFormat, wholeAnswerToSse } from "./whole-answer.js";

type Fetch = typeof globalThis.fetch;

/** Whether a request body asks for an SSE answer (`"stream": true`, as every provider sends it). */
export function asksForStream(body: unknown): boolean {
  if (typeof body !== "string" || !body.includes('"stream"')) return false;
  try {
    const v: unknown = JSON.parse(body);
    return typeof v === "object" && v !== null && (v as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}

const HEAD_CHARS = 200;

/** SSE text starts with a field (`data:`, `event:`, `id:`, `retry:`) or a comment (`:`). */
const SSE_START = /^\s*(?:data|event|id|retry)?:/;

/** The answer to a streamed request, as far as an SSE reader is concerned. */
export type SseCheck =
  /** SSE, labelled `text/event-stream` whatever the server called it. */
  | { kind: "sse"; response: Response }
  /** A whole JSON answer in the API's format (the server ignored `stream`), turned into its events. */
  | { kind: "whole"; response: Response }
  /** Neither: a page, or JSON that is not an answer of the API. `body` is all of it. */
  | { kind: "not-sse"; reason: string; body: string };

/**
 * Sorts the successful answer to a streamed request. Only an answer not labelled
 * `text/event-stream` is read here: events sent under another type are passed on (whole, and
 * labelled as SSE so that readers of the answer take it as such), and so is a whole answer in the
 * `wire` format, as the events the API would have streamed for it.
 */
export async function checkSseAnswer(response: Response, wire?: WireFormat): Promise<SseCheck> {
  const type = response.headers.get("content-type") ?? "";
  if (type.toLowerCase().includes("text/event-stream")) return { kind: "sse", response };
  const body = await response.text();
  const relabel = (text: string): Response => {
    const headers = new Headers(response.headers);
    headers.set("content-type", "text/event-stream");
    // The body is no longer the one these described (fetch has already decoded it).
    headers.delete("content-length");
    headers.delete("content-encoding");
    return new Response(text, { status: response.status, headers });
  };
  if (SSE_START.test(body)) return { kind: "sse", response: relabel(body) };
  const events = wire === undefined ? null : wholeAnswerToSse(wire, body);
  if (events !== null) return { kind: "whole", response: relabel(events) };
  const head = body.length > HEAD_CHARS ? `${body.slice(0, HEAD_CHARS)}…` : body;
  return {
    kind: "not-sse",
    reason: `streamed request answered without SSE (content-type ${type || "none"}): ${JSON.stringify(head)}`,
    body,
  };
}

const warned = new Set<string>();

/**
 * Says once a process, for each server, that it answered a streamed request with a whole JSON
 * answer: the answer is used, but the user may want `stream=false` (or a server that streams).
 */
export function warnIgnoredStream(url: string): void {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // Not a URL: named as it is.
  }
  if (warned.has(origin)) return;
  warned.add(origin);
  process.stderr.write(
    `warning: ${origin} ignored "stream": true and answered with whole JSON; ` +
      "each answer is used as if streamed (set stream=false to ask for JSON)\n",
  );
}

/**
 * A fetch for the providers' SDKs that makes the successful answer to a streamed request SSE, or
 * refuses it. The SDKs' event readers find no event in anything else, and some of them then hand
 * back an empty answer as if the model had said nothing. A whole JSON answer in the provider's
 * `wire` format (a server that ignored `stream`) is handed on as the same answer's events, with a
 * warning once. Anything else (a proxy's HTML page, an error object sent with a 200) is raised as
 * a broken answer (a success status whose body is not the API's), which is retried and, once
 * retries run out, an infrastructure error, as for the same body on a JSON request.
 */
export function sseOnlyFetch(wire: WireFormat, base: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.ok || !asksForStream(init?.body)) return response;
    const url = input instanceof Request ? input.url : String(input);
    const checked = await checkSseAnswer(response, wire);
    if (checked.kind === "whole") warnIgnoredStream(url);
    if (checked.kind !== "not-sse") return checked.response;
    throw new APICallError({
      message: checked.reason,
      url,
      requestBodyValues: {},
      statusCode: response.status,
      responseHeaders: Object.fromEntries(response.headers.entries()),
      responseBody: checked.body,
      isRetryable: true,
    });
  };
}
