import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { anthropicFrames } from "./loopback-anthropic.js";
import { openaiFrames } from "./loopback-chat.js";
import { responsesAnswer, responsesFrames } from "./loopback-responses.js";
import type { EndlessReply, RecordedRequest, Responder, ScriptedReply } from "./loopback-script.js";
import { streamErrorFrames } from "./loopback-sse.js";

export {
  type Answer,
  type EndlessMeter,
  type EndlessReply,
  endless,
  type RecordedRequest,
  type Responder,
  reply,
  type ScriptedReply,
  type ScriptedToolCall,
  type ScriptedUsage,
} from "./loopback-script.js";

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions, OpenAI Responses and
 * Anthropic messages wire formats (JSON and SSE), answering from a per-test script and recording
 * what it was sent.
 */
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
    if (r.kind === "endless") {
      await sendEndless(res, r);
      return;
    }
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
    const stream = (rec.stream || r.sse === true) && r.whole !== true;
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
    const sent = r.stall || r.short ? frames.slice(0, Math.max(1, Math.floor(frames.length / 2))) : frames;
    for (const f of sent) res.write(f);
    if (!r.stall) res.end();
    if (r.cut) cutSoon(res);
  }

  async function sendEndless(res: ServerResponse, r: EndlessReply): Promise<void> {
    r.meter.closed = new Promise((ok) => res.once("close", () => ok()));
    res.writeHead(r.status, { "content-type": r.contentType });
    const unit = Buffer.from(r.unit);
    let chunk = Buffer.from(r.head);
    while (!res.destroyed) {
      if (r.meter.bytes >= r.stopAfter) {
        r.meter.reachedStop = true;
        res.end();
        return;
      }
      r.meter.bytes += chunk.byteLength;
      // Written only as fast as the client reads: what the meter counts is what it was sent.
      if (!res.write(chunk)) await drainedOrClosed(res);
      chunk = unit;
    }
  }

  function drainedOrClosed(res: ServerResponse): Promise<void> {
    return new Promise((ok) => {
      const done = (): void => {
        res.off("drain", done);
        res.off("close", done);
        ok();
      };
      res.on("drain", done);
      res.on("close", done);
    });
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
