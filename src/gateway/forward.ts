import type { IncomingHttpHeaders } from "node:http";
import { APICallError } from "@ai-sdk/provider";
import {
  backoffMs,
  capAnswer,
  checkSseAnswer,
  classifyFailure,
  findAnswerTooLarge,
  type RetryPolicy,
  sleep,
  warnIgnoredStream,
  warnStreamedAnswer,
} from "../models/index.js";
import { BrokenAnswer, checkJsonStart } from "./json-start.js";
import type { GatewayApi } from "./types.js";
import { type Upstream, upstreamAuthHeaders } from "./upstream.js";

// Hop-by-hop headers, the client's credentials (replaced by the real key), the account choices
// that go with the key (an agent must not bill its calls to another organisation or project the
// key can reach) and encodings the gateway must see in clear to read usage.
const DROP_REQUEST = new Set([
  "openai-organization",
  "openai-project",
  "cookie",
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "accept-encoding",
  "authorization",
  "x-api-key",
  "api-key",
  "proxy-authorization",
  "upgrade",
  "expect",
]);

export const DROP_RESPONSE = new Set([
  "connection",
  "keep-alive",
  "content-length",
  "content-encoding",
  "transfer-encoding",
]);

export function upstreamHeaders(
  api: GatewayApi | "count_tokens",
  client: IncomingHttpHeaders,
  upstream: Upstream,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(client)) {
    if (v === undefined || DROP_REQUEST.has(k)) continue;
    out[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  out["content-type"] = "application/json";
  out["accept-encoding"] = "identity";
  if ((api === "messages" || api === "count_tokens") && out["anthropic-version"] === undefined)
    out["anthropic-version"] = "2023-06-01";
  return { ...out, ...upstreamAuthHeaders(api, upstream.apiKey) };
}

export type ForwardResult =
  /** The upstream answered with something that is not retried (success included): relay it. */
  | { kind: "answer"; response: Response; attempts: number; retryMs: number; attemptMs: number }
  /** Retries ran out on a 429/5xx answer: `body` is the upstream's last one, in the client's format. */
  | {
      kind: "gave-up";
      status: number;
      headers: Headers;
      body: string;
      reason: string;
      attempts: number;
      retryMs: number;
    }
  /** Retries ran out without any answer (connection refused, reset, timeout). */
  | { kind: "unreachable"; reason: string; attempts: number; retryMs: number };

export interface ForwardRequest {
  /** The API called, whose whole JSON answer to a streamed request is turned into its events. */
  api: GatewayApi;
  url: string;
  headers: Record<string, string>;
  body: string;
  /**
   * The request asks for SSE: a successful answer that is neither SSE nor a whole answer of the
   * API is retried like a 5xx. Without it, a successful answer that is not JSON is.
   */
  stream: boolean;
  policy: RetryPolicy;
  /** Limit on waiting for the upstream's response headers, per attempt. */
  timeoutMs: number;
  /**
   * The most bytes of an answer's body read, per attempt: past it the body fails with
   * AnswerTooLarge (retried like a broken answer while it is read here; cut once relayed).
   */
  capBytes: number;
  /** The client went away or the gateway is closing. */
  signal: AbortSignal;
  onRetry?: (attempt: number, reason: string, waitMs: number) => void;
}

/** Sends one call upstream, retrying 429, 408, 5xx and cut connections with backoff (Retry-After honoured). */
export async function forward(req: ForwardRequest): Promise<ForwardResult> {
  const first = performance.now();
  for (let attempt = 0; ; attempt++) {
    const start = performance.now();
    // One controller an attempt (AbortSignal.timeout/any cost more per call): the caller's
    // signal and the header timeout both abort it; it stays tied to the caller's signal while
    // the body streams.
    const ac = new AbortController();
    const relay = (): void => ac.abort(req.signal.reason);
    req.signal.addEventListener("abort", relay, { once: true });
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    // Armed for the headers, and again at each part of an SSE answer read whole here, so that a
    // long answer is not cut while one that goes silent is.
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        ac.abort(new Error("upstream timeout"));
      }, req.timeoutMs);
    };
    arm();
    let failure: ReturnType<typeof classifyFailure>;
    let last: { status: number; headers: Headers; body: string } | null = null;
    try {
      const sent = await fetch(req.url, {
        method: "POST",
        headers: req.headers,
        body: req.body,
        signal: ac.signal,
      });
      const response = capAnswer(sent, req.url, req.capBytes);
      const attemptMs = performance.now() - start;
      const retryMs = start - first;
      if (response.ok) {
        // A page, or JSON that is no answer (an error object), on a streamed request would reach
        // the agent as an answer without events, which some clients take for an empty one; a page
        // on a JSON request would be the agent's answer. Read (under the timeout) and retried;
        // never relayed, even at the end. A whole answer of the API on a streamed request (a
        // server that ignored `stream`) is relayed as the events the API would have sent, and
        // the events on a JSON request (a server that always streams) as the whole answer.
        if (!req.stream) {
          const json = await checkJsonStart(response, req.api, arm);
          clearTimeout(timer);
          if (json.assembled) warnStreamedAnswer(req.url);
          return { kind: "answer", response: json.response, attempts: attempt + 1, retryMs, attemptMs };
        }
        const checked = await checkSseAnswer(response, req.api);
        clearTimeout(timer);
        if (checked.kind === "not-sse") throw new BrokenAnswer(checked.reason);
        if (checked.kind === "whole") warnIgnoredStream(req.url);
        return { kind: "answer", response: checked.response, attempts: attempt + 1, retryMs, attemptMs };
      }
      // An error's body is read here, still under the timeout: an upstream that sends an error
      // status and then goes silent must not hold the call.
      const body = await response.text();
      clearTimeout(timer);
      const headers = Object.fromEntries(response.headers.entries());
      failure = classifyFailure(
        new APICallError({
          message: `HTTP ${response.status}`,
          url: req.url,
          requestBodyValues: {},
          statusCode: response.status,
          responseHeaders: headers,
          responseBody: body,
        }),
        false,
      );
      if (!failure.retryable) {
        // Relayed as it came: rebuilt, since its body has been read.
        const again = new Response(body, { status: response.status, headers: response.headers });
        return { kind: "answer", response: again, attempts: attempt + 1, retryMs, attemptMs };
      }
      last = { status: response.status, headers: response.headers, body };
      req.signal.removeEventListener("abort", relay);
    } catch (e) {
      clearTimeout(timer);
      req.signal.removeEventListener("abort", relay);
      if (req.signal.aborted) throw e;
      // An answer over the cap says which server and what cap in its message; so does the 502.
      const tooLarge = findAnswerTooLarge(e);
      failure =
        e instanceof BrokenAnswer || tooLarge !== null
          ? { retryable: true, reason: (tooLarge ?? (e as Error)).message }
          : classifyFailure(e, timedOut);
      if (!failure.retryable) failure = { retryable: true, reason: failure.reason };
    }
    const retryMs = performance.now() - first;
    if (attempt >= req.policy.maxRetries) {
      const reason = `${failure.reason} (gave up after ${attempt + 1} attempts)`;
      return last === null
        ? { kind: "unreachable", reason, attempts: attempt + 1, retryMs }
        : { kind: "gave-up", ...last, reason, attempts: attempt + 1, retryMs };
    }
    const waitMs = backoffMs(attempt, req.policy, failure);
    req.onRetry?.(attempt + 1, failure.reason, waitMs);
    await sleep(waitMs, req.signal);
  }
}
