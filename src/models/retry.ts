import {
  APICallError,
  InvalidResponseDataError,
  JSONParseError,
  TypeValidationError,
} from "@ai-sdk/provider";
import { findAnswerTooLarge } from "./answer-cap.js";

// The SDK marks its errors with a registered symbol; this is its NoOutputGeneratedError.isInstance
// without loading the SDK (this module is on every command's path; the SDK loads with the first
// model call).
const NO_OUTPUT_GENERATED = Symbol.for("vercel.ai.error.AI_NoOutputGeneratedError");

function isNoOutputGenerated(e: unknown): boolean {
  return typeof e === "object" && e !== null && Reflect.get(e, NO_OUTPUT_GENERATED) === true;
}

export interface RetryPolicy {
  maxRetries: number;
  baseMs: number;
  maxMs: number;
}

/** Why an attempt failed, as far as retrying is concerned. */
export interface FailureClass {
  retryable: boolean;
  reason: string;
  /** Server-requested wait (Retry-After), in ms. */
  retryAfterMs?: number;
}

const NETWORK_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET"]);

function causeCode(e: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof e !== "object" || e === null) return undefined;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string") return code;
  return causeCode((e as { cause?: unknown }).cause, depth + 1);
}

function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  const v = headers?.["retry-after"];
  if (v === undefined) return undefined;
  const sec = Number(v);
  if (Number.isFinite(sec)) return Math.max(0, sec * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * 429, 5xx, cut connections, broken or malformed answers and our own per-attempt timeout are
 * retried; other 4xx are not.
 */
export function classifyFailure(e: unknown, timedOut: boolean): FailureClass {
  if (timedOut) return { retryable: true, reason: "timeout" };
  // Before the status checks: an error answer (a 400, say) over the cap is the server's failure too.
  if (findAnswerTooLarge(e) !== null) return { retryable: true, reason: "answer over the size cap" };
  if (APICallError.isInstance(e)) {
    const s = e.statusCode;
    const after = retryAfterMs(e.responseHeaders);
    if (s === 429 || (s !== undefined && s >= 500) || s === 408)
      return {
        retryable: true,
        reason: `http ${s}`,
        ...(after === undefined ? {} : { retryAfterMs: after }),
      };
    if (s === undefined && e.isRetryable) return { retryable: true, reason: "connection" };
    // A success status whose body broke off or could not be read: the answer, not the request,
    // was at fault (a cut connection, a proxy's HTML page), so it is the provider's to retry.
    if (s !== undefined && s >= 200 && s < 300)
      return { retryable: true, reason: `broken answer (http ${s})` };
    return { retryable: false, reason: `http ${s ?? "?"}` };
  }
  // An answer the SDK could not make sense of (a stream that ended without finishing or without
  // any event, JSON that does not fit the API) is the server's failure, never the agent's.
  if (
    InvalidResponseDataError.isInstance(e) ||
    JSONParseError.isInstance(e) ||
    TypeValidationError.isInstance(e) ||
    isNoOutputGenerated(e)
  )
    return { retryable: true, reason: "malformed answer" };
  const streamed = streamedError(e);
  if (streamed !== null) return streamed;
  const code = causeCode(e);
  if (code !== undefined && NETWORK_CODES.has(code)) return { retryable: true, reason: code };
  if (e instanceof TypeError && /fetch failed|terminated/i.test(e.message))
    return { retryable: true, reason: "connection" };
  return { retryable: false, reason: e instanceof Error ? e.name : "error" };
}

// Error kinds a provider reports inside a stream that has already begun with a 200: Anthropic's
// `overloaded_error` / `api_error` / `rate_limit_error` events, OpenAI's `server_error`.
const TRANSIENT_STREAM_ERROR = /overloaded|rate_limit|api_error|server_error|internal|timeout|unavailable/i;

/**
 * An error event from inside an SSE answer, which the SDK passes on as the provider's plain
 * object (`{type, message}`, or `{code, message}`), not as an Error with a status.
 */
function streamedError(e: unknown): FailureClass | null {
  if (typeof e !== "object" || e === null || e instanceof Error) return null;
  const o = e as { type?: unknown; code?: unknown; message?: unknown };
  const kind = [o.type, o.code].find((v): v is string => typeof v === "string" && v !== "error");
  if (kind === undefined) return null;
  return { retryable: TRANSIENT_STREAM_ERROR.test(kind), reason: `stream error ${kind}` };
}

/** Exponential backoff with full jitter, floored by the server's Retry-After when given. */
export function backoffMs(attempt: number, policy: RetryPolicy, f: FailureClass, rand = Math.random): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  const jittered = exp / 2 + (rand() * exp) / 2;
  return Math.min(policy.maxMs, Math.max(jittered, f.retryAfterMs ?? 0));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
