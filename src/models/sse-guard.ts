import { APICallError } from "@ai-sdk/provider";
import { answerCapBytes, capAnswer, DEFAULT_MAX_ANSWER_MIB } from "./answer-cap.js";
import {
  assembleStreamedAnswer,
  isEventStream,
  SSE_START,
  type StreamedAnswer,
  warnStreamedAnswer,
} from "./streamed-answer.js";
import { warnOncePerServer } from "./warn-once.js";
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
  if (isEventStream(response)) return { kind: "sse", response };
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

/**
 * Says once a process, for each server, that it answered a streamed request with a whole JSON
 * answer: the answer is used, but the user may want `stream=false` (or a server that streams).
 */
export function warnIgnoredStream(url: string): void {
  warnOncePerServer(
    "ignored-stream",
    url,
    (origin) =>
      `warning: ${origin} ignored "stream": true and answered with whole JSON; ` +
      "each answer is used as if streamed (set stream=false to ask for JSON)",
  );
}

/**
 * The successful answer to a request without `stream`, as a JSON reader is to get it: an SSE
 * stream (labelled so, or events sent under a type other than JSON) is assembled into the whole
 * answer its events carry, or found broken; anything else is left to the reader as it came.
 */
export async function checkJsonAnswer(
  response: Response,
  wire: WireFormat,
): Promise<StreamedAnswer | { kind: "other"; response: Response }> {
  if (isEventStream(response)) return assembleStreamedAnswer(response, await response.text(), wire);
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  if (type.includes("json")) return { kind: "other", response };
  const body = await response.text();
  if (SSE_START.test(body)) return assembleStreamedAnswer(response, body, wire);
  return {
    kind: "other",
    response: new Response(body, { status: response.status, headers: response.headers }),
  };
}

/**
 * A fetch for the providers' SDKs that gives each request the kind of answer it asked for. The
 * successful answer to a streamed request is made SSE, or refused: the SDKs' event readers find
 * no event in anything else, and some of them then hand back an empty answer as if the model had
 * said nothing. A whole JSON answer in the provider's `wire` format (a server that ignored
 * `stream`) is handed on as the same answer's events, with a warning once. The SSE answer to a
 * request without `stream` (a server that always streams) is handed on as the whole JSON answer
 * its events carry, also with a warning once. Anything else (a proxy's HTML page, an error object
 * sent with a 200, a stream cut short or carrying an error event) is raised as a broken answer (a
 * success status whose body is not the API's), which is retried and, once retries run out, an
 * infrastructure error. No answer is read past `capBytes` (AnswerTooLarge, also retried as broken).
 */
export function answerShapeFetch(
  wire: WireFormat,
  capBytes = answerCapBytes(DEFAULT_MAX_ANSWER_MIB),
  base: Fetch = globalThis.fetch,
): Fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    // Every body, an error's included, whether read here or by the SDK, whole or as it streams.
    const response = capAnswer(await base(input, init), url, capBytes);
    if (!response.ok) return response;
    const broken = (reason: string, body: string): APICallError =>
      new APICallError({
        message: reason,
        url,
        requestBodyValues: {},
        statusCode: response.status,
        responseHeaders: Object.fromEntries(response.headers.entries()),
        responseBody: body,
        isRetryable: true,
      });
    if (!asksForStream(init?.body)) {
      // A body that is neither JSON nor SSE goes on as it came, to fail the SDK's JSON reader.
      const checked = await checkJsonAnswer(response, wire);
      if (checked.kind === "broken") throw broken(checked.reason, "");
      if (checked.kind === "assembled") warnStreamedAnswer(url);
      return checked.response;
    }
    const checked = await checkSseAnswer(response, wire);
    if (checked.kind === "whole") warnIgnoredStream(url);
    if (checked.kind !== "not-sse") return checked.response;
    throw broken(checked.reason, checked.body);
  };
}
