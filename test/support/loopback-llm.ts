import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { responsesFrames } from "./loopback-responses.js";

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions, OpenAI Responses and
 * Anthropic messages wire formats (JSON and SSE), answering from a per-test script and recording
 * what it was sent.
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

export type ScriptedReply =
  /**
   * `stall` sends the status line and part of the body, then goes silent; `cut` sends the same
   * part and then drops the connection (a reset mid-answer). `whole` answers a streamed request
   * with the whole JSON body, as a server that ignores `stream` does.
   */
  | {
      kind: "text";
      text: string;
      usage?: ScriptedUsage;
      delayMs?: number;
      stall?: boolean;
      cut?: boolean;
      whole?: boolean;
    }
  | {
      kind: "tools";
      whole?: boolean;
      calls: ScriptedToolCall[];
      text?: string;
      usage?: ScriptedUsage;
      delayMs?: number;
      stall?: boolean;
      cut?: boolean;
    }
  /** `stall` sends the status line and part of the error body, then goes silent. */
  | { kind: "error"; status: number; message?: string; retryAfterSec?: number; stall?: boolean }
  /** A streamed answer that begins (status 200) and then carries the API's error event. */
  | { kind: "stream-error"; errorType: string }
  /** A body sent as it is, whatever the API (a proxy's HTML page with a 200, say). */
  | { kind: "raw"; status: number; contentType: string; body: string }
  /** Accepts the request and never answers (until the server closes). */
  | { kind: "hang" };

export interface RecordedRequest {
  format: "openai" | "anthropic" | "responses";
  path: string;
  stream: boolean;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export type Responder = (req: RecordedRequest) => ScriptedReply;

export interface LoopbackLlm {
  /** Base URL for every format: `${url}/chat/completions`, `${url}/responses` and `${url}/messages`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  push(...replies: ScriptedReply[]): void;
  /** Answers requests once the queue is empty (default: HTTP 500 "script exhausted"). */
  setFallback(r: Responder): void;
  pending(): number;
  /** Drops unanswered scripted replies and restores the default fallback, so tests stay independent. */
  reset(): void;
  close(): Promise<void>;
}

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
};

export async function startLoopbackLlm(): Promise<LoopbackLlm> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const exhausted: Responder = () => ({ kind: "error", status: 500, message: "script exhausted" });
  let fallback = exhausted;
  let seq = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(e) } }));
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const format = path.endsWith("/chat/completions")
      ? "openai"
      : path.endsWith("/messages")
        ? "anthropic"
        : path.endsWith("/responses")
          ? "responses"
          : null;
    if (req.method !== "POST" || format === null) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    const rec: RecordedRequest = { format, path, stream: body.stream === true, headers: req.headers, body };
    requests.push(rec);
    const r = queue.shift() ?? fallback(rec);
    seq++;
    if (r.kind === "hang") return;
    if ("delayMs" in r && r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
    if (r.kind === "stream-error") {
      res.writeHead(200, { "content-type": "text/event-stream" }).end(streamErrorFrames(format, r.errorType));
      return;
    }
    if (r.kind === "raw") {
      res.writeHead(r.status, { "content-type": r.contentType }).end(r.body);
      return;
    }
    if (r.kind === "error") {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (r.retryAfterSec !== undefined) headers["retry-after"] = String(r.retryAfterSec);
      const message = r.message ?? `scripted HTTP ${r.status}`;
      const errBody =
        format !== "anthropic"
          ? { error: { message, type: "server_error" } }
          : { type: "error", error: { type: r.status === 429 ? "rate_limit_error" : "api_error", message } };
      const whole = JSON.stringify(errBody);
      if (r.stall) res.writeHead(r.status, headers).write(whole.slice(0, 10));
      else res.writeHead(r.status, headers).end(whole);
      return;
    }
    const model = typeof body.model === "string" ? body.model : "loopback";
    const stream = rec.stream && r.whole !== true;
    const frames =
      format === "openai"
        ? openaiFrames(r, model, seq, stream)
        : format === "responses"
          ? responsesFrames(responsesAnswer(r), model, seq, stream)
          : anthropicFrames(r, model, seq, stream);
    if (!stream) {
      res.writeHead(200, { "content-type": "application/json" });
      const whole = frames[0] ?? "";
      if (r.stall) res.write(whole.slice(0, Math.floor(whole.length / 2)));
      else res.end(whole);
      if (r.cut) cutSoon(res);
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const sent = r.stall ? frames.slice(0, Math.max(1, Math.floor(frames.length / 2))) : frames;
    for (const f of sent) res.write(f);
    if (!r.stall) res.end();
    if (r.cut) cutSoon(res);
  }

  // Once the part sent has left, so the client sees the start of the answer and then a reset.
  function cutSoon(res: ServerResponse): void {
    setTimeout(() => res.socket?.destroy(), 30);
  }

  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...replies) => queue.push(...replies),
    setFallback: (r) => {
      fallback = r;
    },
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      fallback = exhausted;
    },
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}

type Answer = Extract<ScriptedReply, { kind: "text" | "tools" }>;

function parts(r: Answer): { text: string; calls: { id: string; name: string; args: string }[] } {
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

function responsesAnswer(r: Answer) {
  const u = r.usage ?? {};
  return {
    ...parts(r),
    usage: { input: u.input ?? 0, output: u.output ?? 0, cached: u.cached ?? 0, reasoning: u.reasoning ?? 0 },
  };
}

function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
}

function openaiFrames(r: Answer, model: string, seq: number, stream: boolean): string[] {
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

function anthropicFrames(r: Answer, model: string, seq: number, stream: boolean): string[] {
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

function streamErrorFrames(format: RecordedRequest["format"], errorType: string): string {
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

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return { _raw: s };
  }
}
