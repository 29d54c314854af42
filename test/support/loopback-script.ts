/**
 * What the loopback model server is told to answer (a per-test script) and what it records of
 * each request it was sent.
 */
export interface ScriptedUsage {
  /** All prompt tokens, cached ones included. */
  input?: number;
  output?: number;
  cached?: number;
  cacheWrite?: number;
  reasoning?: number;
}

export interface ScriptedToolCall {
  name: string;
  /** An object is JSON-encoded; a string is sent verbatim (so it can be malformed). */
  arguments: unknown;
  id?: string;
}

/** How an answer is sent, when not as the request asked (see ScriptedReply). */
export interface AnswerShape {
  whole?: boolean;
  sse?: boolean;
  short?: boolean;
}

export type ScriptedReply =
  /**
   * `stall` sends the status line and part of the body, then goes silent; `cut` sends the same
   * part and then drops the connection (a reset mid-answer). `whole` answers a streamed request
   * with the whole JSON body, as a server that ignores `stream` does; `sse` answers a request
   * without `stream` with the API's events, as a server that always streams does. `short` ends
   * an SSE answer cleanly after half its events, before the one that ends it.
   */
  | ({
      kind: "text";
      text: string;
      usage?: ScriptedUsage;
      delayMs?: number;
      stall?: boolean;
      cut?: boolean;
    } & AnswerShape)
  | ({
      kind: "tools";
      calls: ScriptedToolCall[];
      text?: string;
      usage?: ScriptedUsage;
      delayMs?: number;
      stall?: boolean;
      cut?: boolean;
    } & AnswerShape)
  /** `stall` sends the status line and part of the error body, then goes silent. */
  | { kind: "error"; status: number; message?: string; retryAfterSec?: number; stall?: boolean }
  /** A streamed answer that begins (status 200) and then carries the API's error event. */
  | { kind: "stream-error"; errorType: string }
  /** A body sent as it is, whatever the API (a proxy's HTML page with a 200, say). */
  | { kind: "raw"; status: number; contentType: string; body: string }
  /** Accepts the request and never answers (until the server closes). */
  | { kind: "hang" }
  /** A body without end: see EndlessReply. */
  | EndlessReply;

/**
 * An answer that never ends: `head`, then `unit` again and again (as fast as the client takes
 * it), until the client hangs up, or until `stopAfter` bytes, so that code without a cap on what
 * it reads ends too (and shows how much it read). `meter` says what was handed to the connection.
 */
export interface EndlessReply {
  kind: "endless";
  status: number;
  contentType: string;
  head: string;
  unit: string;
  stopAfter: number;
  meter: EndlessMeter;
}

export interface EndlessMeter {
  /** Body bytes written to the connection so far (the client read at most these). */
  bytes: number;
  /** Whether the server stopped at `stopAfter` (the client never hung up). */
  reachedStop: boolean;
  /** Resolves when the connection has closed. */
  closed: Promise<void>;
}

/** A fresh EndlessReply whose meter is filled in by the server. */
export function endless(
  o: Pick<EndlessReply, "contentType" | "head" | "unit" | "stopAfter"> & { status?: number },
): EndlessReply {
  const meter: EndlessMeter = { bytes: 0, reachedStop: false, closed: Promise.resolve() };
  return { kind: "endless", status: o.status ?? 200, ...o, meter };
}

export interface RecordedRequest {
  format: "openai" | "anthropic" | "responses";
  path: string;
  stream: boolean;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export type Responder = (req: RecordedRequest) => ScriptedReply;

/** A scripted answer with a body in the API's format (text, or tool calls and text). */
export type Answer = Extract<ScriptedReply, { kind: "text" | "tools" }>;

/** An answer's text and tool calls, each call with an id and its arguments as JSON text. */
export function parts(r: Answer): { text: string; calls: { id: string; name: string; args: string }[] } {
  if (r.kind === "text") return { text: r.text, calls: [] };
  return {
    text: r.text ?? "",
    calls: r.calls.map((c, i) => ({
      id: c.id ?? `call_${i + 1}`,
      name: c.name,
      args: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
    })),
  };
}

/** Shorthands for the replies tests script most often. */
const text = (t: string, usage?: ScriptedUsage): Extract<ScriptedReply, { kind: "text" }> => ({
  kind: "text",
  text: t,
  ...(usage ? { usage } : {}),
});
export const reply = {
  text,
  json: (v: unknown, usage?: ScriptedUsage): ScriptedReply => text(JSON.stringify(v), usage),
  tools: (calls: ScriptedToolCall[], usage?: ScriptedUsage): ScriptedReply => ({
    kind: "tools",
    calls,
    ...(usage ? { usage } : {}),
  }),
  error: (status: number, retryAfterSec?: number): ScriptedReply => ({
    kind: "error",
    status,
    ...(retryAfterSec === undefined ? {} : { retryAfterSec }),
  }),
  hang: (): ScriptedReply => ({ kind: "hang" }),
  stall: (t: string): ScriptedReply => ({ kind: "text", text: t, stall: true }),
  cut: (t: string): ScriptedReply => ({ kind: "text", text: t, stall: true, cut: true }),
  raw: (body: string, contentType = "text/html", status = 200): ScriptedReply => ({
    kind: "raw",
    status,
    contentType,
    body,
  }),
  empty: (): ScriptedReply => text(""),
  /** The answer as one JSON body whether or not the request asked for a stream. */
  whole: (r: Extract<ScriptedReply, { kind: "text" | "tools" }>): ScriptedReply => ({ ...r, whole: true }),
  /**
   * The answer as the API's events whether or not the request asked for a stream; `short` ends
   * the stream cleanly before its last events.
   */
  streamed: (r: Extract<ScriptedReply, { kind: "text" | "tools" }>, short = false): ScriptedReply => ({
    ...r,
    sse: true,
    ...(short ? { short } : {}),
  }),
};
