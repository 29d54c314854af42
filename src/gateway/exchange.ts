import type { IncomingMessage, ServerResponse } from "node:http";
import {
  addCall,
  type CallRecord,
  costOf,
  type PriceEntry,
  RETRY_MS_HEADER,
  type RetryPolicy,
  type TokenUsage,
  type UsageTotals,
  zeroTokens,
} from "../models/index.js";
import type { BudgetGate } from "./budget.js";
import { worstCaseSpend } from "./call-bound.js";
import { sendError } from "./errors.js";
import { DROP_RESPONSE, forward, upstreamHeaders } from "./forward.js";
import { type ExchangeRecord, type ExchangeRecorder, redactHeaders } from "./record.js";
import { relayBody } from "./relay.js";
import { SseTap } from "./sse.js";
import type { BudgetStop, GatewayApi, GatewayFault } from "./types.js";
import type { Upstream } from "./upstream.js";
import { usageFromEvent, usageFromJson } from "./usage-parse.js";

/** The per-trial state every exchange reads and updates. */
export interface GatewayState {
  modelId: string;
  upstream: Upstream;
  price: PriceEntry | null;
  /** The trial model's context window, which bounds what one call can spend. */
  contextWindow: number;
  gate: BudgetGate;
  policy: RetryPolicy;
  timeoutMs: number;
  /** The most bytes of one upstream answer read (`max_answer_mib`). */
  capBytes: number;
  totals: UsageTotals;
  refusedCalls: number;
  stop: BudgetStop | null;
  fault: GatewayFault | null;
  recorder: ExchangeRecorder | null;
  closing: AbortController;
  log: (line: string) => void;
  onFault: (f: GatewayFault) => void;
}

export interface ExchangeInput {
  api: GatewayApi;
  path: string;
  req: IncomingMessage;
  res: ServerResponse;
  bodyText: string;
}

function record(
  s: GatewayState,
  x: ExchangeInput,
  fields: Partial<ExchangeRecord> & Pick<ExchangeRecord, "status">,
  responseBody: string,
  responseHeaders: Record<string, string> = {},
): void {
  const body = s.recorder?.body(x.bodyText) ?? null;
  const requested = typeof (body as { model?: unknown } | null)?.model === "string";
  s.recorder?.write({
    time: new Date().toISOString(),
    api: x.api,
    method: x.req.method ?? "POST",
    path: x.path,
    model: s.modelId,
    requested_model: requested ? String((body as { model: string }).model) : null,
    stream: (body as { stream?: unknown } | null)?.stream === true,
    usage: null,
    cost_usd: 0,
    latency_ms: 0,
    attempts: 0,
    retry_ms: 0,
    refused: null,
    ...fields,
    request: { headers: redactHeaders(x.req.headers), body },
    response: { headers: redactHeaders(responseHeaders), body: s.recorder?.body(responseBody) ?? null },
  });
}

/** The request as sent upstream: the trial's model, and usage asked for in streamed chat answers. */
function upstreamBody(s: GatewayState, api: GatewayApi, parsed: Record<string, unknown>): string {
  const out: Record<string, unknown> = { ...parsed, model: s.upstream.model };
  if (api === "chat" && parsed.stream === true) {
    const opts =
      typeof parsed.stream_options === "object" && parsed.stream_options !== null
        ? parsed.stream_options
        : {};
    out.stream_options = { ...opts, include_usage: true };
  }
  return JSON.stringify(out);
}

function usageJson(t: TokenUsage): ExchangeRecord["usage"] {
  return {
    input_tokens: t.inputTokens,
    output_tokens: t.outputTokens,
    cached_tokens: t.cachedTokens,
    cache_write_tokens: t.cacheWriteTokens,
    reasoning_tokens: t.reasoningTokens,
  };
}

/** One model call: budget admission, forward with retries, relay (SSE unchanged), count, record. */
export async function handleModelCall(s: GatewayState, x: ExchangeInput): Promise<void> {
  const { api, res } = x;
  let parsed: Record<string, unknown>;
  try {
    const v: unknown = JSON.parse(x.bodyText);
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("not an object");
    parsed = v as Record<string, unknown>;
  } catch {
    const body = sendError(res, api, "bad_request", "request body is not a JSON object");
    record(s, x, { status: 400, refused: "bad_request" }, body);
    return;
  }
  // Aborted when the gateway closes, or when the client goes away before the answer starts: the
  // upstream call is then cut. Once the answer streams, a client that leaves does not cut it: the
  // gateway reads it to its end for its usage (which comes last), or an agent could spend past its
  // budget uncounted by hanging up just before the usage arrives.
  const call = new AbortController();
  const relay = { started: false };
  const onClosing = (): void => call.abort(s.closing.signal.reason);
  s.closing.signal.addEventListener("abort", onClosing, { once: true });
  res.on("close", () => {
    if (!relay.started) s.closing.signal.removeEventListener("abort", onClosing);
    if (!res.writableFinished && !relay.started) call.abort(new Error("client went away"));
  });
  const worst = worstCaseSpend(api, parsed, Buffer.byteLength(x.bodyText), s);
  s.stop ??= await s.gate.admit(() => s.totals, call.signal, worst);
  if (s.stop !== null) {
    s.refusedCalls++;
    const body = sendError(res, api, "budget", `longhaul trial budget exhausted: ${s.stop.message}`);
    record(s, x, { status: 400, refused: "budget" }, body);
    return;
  }
  try {
    await sendUpstream(s, x, parsed, call, relay);
  } finally {
    s.closing.signal.removeEventListener("abort", onClosing);
    s.gate.release(worst);
  }
}

/** Forwards an admitted call, relays the answer and counts it. */
async function sendUpstream(
  s: GatewayState,
  x: ExchangeInput,
  parsed: Record<string, unknown>,
  call: AbortController,
  relay: { started: boolean },
): Promise<void> {
  const { api, res } = x;
  const signal = call.signal;
  const t0 = performance.now();
  const result = await forward({
    api,
    url: `${s.upstream.baseUrl}${x.path}`,
    headers: upstreamHeaders(api, x.req.headers, s.upstream),
    body: upstreamBody(s, api, parsed),
    stream: parsed.stream === true,
    policy: s.policy,
    timeoutMs: s.timeoutMs,
    capBytes: s.capBytes,
    signal,
    onRetry: (attempt, reason, waitMs) =>
      s.log(`gateway: upstream ${reason}; retry ${attempt} in ${Math.round(waitMs)} ms`),
  });

  if (result.kind !== "answer") {
    const message = `upstream ${s.upstream.provider} failed: ${result.reason}`;
    s.fault ??= { kind: "infra", message };
    s.onFault(s.fault);
    const common = {
      latency_ms: performance.now() - t0,
      attempts: result.attempts,
      retry_ms: result.retryMs,
      refused: "upstream",
    };
    if (result.kind === "gave-up") {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (!res.headersSent) res.writeHead(result.status, headers);
      res.end(result.body);
      record(s, x, { ...common, status: result.status }, result.body, Object.fromEntries(result.headers));
    } else {
      const body = sendError(res, api, "upstream", message);
      record(s, x, { ...common, status: 502 }, body);
    }
    return;
  }

  const up = result.response;
  // As for longhaul's own client: a refused key, or a model (or API) the upstream does not have,
  // fails every trial alike, so it stops the job instead of being scored as the agent's failure.
  if (up.status === 401 || up.status === 403 || up.status === 404) {
    s.fault ??= {
      kind: "config",
      message:
        up.status === 404
          ? `upstream ${s.upstream.provider} has no ${x.path} for model ${s.upstream.model} (HTTP 404)`
          : `upstream ${s.upstream.provider} refused longhaul's key (HTTP ${up.status})`,
    };
    s.onFault(s.fault);
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of up.headers) if (!DROP_RESPONSE.has(k)) headers[k] = v;
  // Time lost to upstream retries, so a client can keep it out of its agent's budget (ModelClient does).
  if (result.retryMs > 0) headers[RETRY_MS_HEADER] = String(Math.round(result.retryMs));
  res.writeHead(up.status, headers);
  relay.started = true;
  const isSse = (up.headers.get("content-type") ?? "").includes("text/event-stream");
  const seen: { usage: TokenUsage | null } = { usage: null };
  const tap = isSse ? new SseTap((d) => (seen.usage = usageFromEvent(api, d, seen.usage))) : null;
  // JSON answers are kept whole, up to the cap (their usage is read at the end); SSE text only as far
  // as the record keeps it.
  const { kept, cut, overCap } = await relayBody({
    body: up.body as AsyncIterable<Uint8Array> | null,
    res,
    abort: (reason) => call.abort(reason),
    idleMs: s.timeoutMs,
    keepLimit: isSse ? 512 * 1024 : Number.POSITIVE_INFINITY,
    onChunk: (chunk) => tap?.push(chunk),
  });
  tap?.end();
  if (overCap) {
    // Already begun, so it cannot be answered with an error status: the client's connection is
    // cut, and the trial ends as an infrastructure error, never the agent's failure.
    s.fault ??= { kind: "infra", message: `upstream ${s.upstream.provider} failed: ${cut}` };
    s.onFault(s.fault);
  }
  const text = kept.toString("utf8");
  let usage = seen.usage;
  if (!isSse && up.ok) {
    try {
      usage = usageFromJson(api, JSON.parse(text));
    } catch {
      usage = null;
    }
  }
  const latency = performance.now() - t0;
  let costUsd = 0;
  // An answer without usage fields still counts as a call, with no tokens.
  if (up.ok) {
    const tokens: TokenUsage = usage ?? zeroTokens();
    // No usage fields (or a cut answer): the cost is unknown, flagged as for an unpriced model.
    const cost = usage === null ? { usd: 0, priced: false } : costOf(tokens, s.price);
    costUsd = cost.usd;
    const rec: CallRecord = {
      model: s.modelId,
      tokens,
      costUsd: cost.usd,
      priced: cost.priced,
      modelSec: (latency - result.retryMs) / 1000,
      retrySec: result.retryMs / 1000,
      attempts: result.attempts,
    };
    s.totals = addCall(s.totals, rec);
  }
  record(
    s,
    x,
    {
      status: up.status,
      usage: usage === null ? null : usageJson(usage),
      cost_usd: costUsd,
      latency_ms: latency,
      attempts: result.attempts,
      retry_ms: result.retryMs,
      ...(cut === null ? {} : { refused: `stream cut: ${cut}` }),
    },
    text,
    headers,
  );
}
