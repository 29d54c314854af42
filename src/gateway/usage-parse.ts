import { type TokenUsage, tokenCount, zeroTokens } from "../models/index.js";
import type { GatewayApi } from "./types.js";

/**
 * Token counts from an upstream's own usage fields, in longhaul's convention: `inputTokens` counts
 * every prompt token (cache reads and writes included), `reasoningTokens` is part of `outputTokens`.
 */

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

const num = tokenCount;

/** Chat Completions `usage` and Responses `usage` (their detail fields are named differently). */
function openaiUsage(u: Obj): TokenUsage {
  const inDetails = obj(u.prompt_tokens_details) ?? obj(u.input_tokens_details);
  const outDetails = obj(u.completion_tokens_details) ?? obj(u.output_tokens_details);
  return {
    inputTokens: num(u.prompt_tokens) ?? num(u.input_tokens) ?? 0,
    outputTokens: num(u.completion_tokens) ?? num(u.output_tokens) ?? 0,
    cachedTokens: num(inDetails?.cached_tokens) ?? 0,
    cacheWriteTokens: num(inDetails?.cache_write_tokens) ?? num(inDetails?.cache_creation_tokens) ?? 0,
    reasoningTokens: num(outDetails?.reasoning_tokens) ?? 0,
  };
}

/** Anthropic counts uncached input apart from cache reads and writes. */
function anthropicUsage(u: Obj, prev: TokenUsage | null): TokenUsage {
  const fresh = num(u.input_tokens);
  const read = num(u.cache_read_input_tokens);
  const write = num(u.cache_creation_input_tokens);
  const base = prev ?? zeroTokens();
  const cached = read ?? base.cachedTokens;
  const written = write ?? base.cacheWriteTokens;
  const input = fresh === undefined ? base.inputTokens : fresh + cached + written;
  const thinking = num(obj(u.output_tokens_details)?.thinking_tokens);
  return {
    inputTokens: input,
    outputTokens: num(u.output_tokens) ?? base.outputTokens,
    cachedTokens: cached,
    cacheWriteTokens: written,
    reasoningTokens: thinking ?? base.reasoningTokens,
  };
}

/** Usage of a whole JSON answer; null when it carries none. */
export function usageFromJson(api: GatewayApi, body: unknown): TokenUsage | null {
  const u = obj(obj(body)?.usage);
  if (u === undefined) return null;
  return api === "messages" ? anthropicUsage(u, null) : openaiUsage(u);
}

/**
 * Folds one SSE event's data into the usage seen so far. Chat Completions sends usage in its last
 * chunk; Responses in `response.completed` (or `.incomplete` / `.failed`); Anthropic in
 * `message_start` and then cumulative counts in `message_delta`.
 */
export function usageFromEvent(api: GatewayApi, data: unknown, prev: TokenUsage | null): TokenUsage | null {
  const d = obj(data);
  if (d === undefined) return prev;
  if (api === "chat") {
    const u = obj(d.usage);
    return u === undefined ? prev : openaiUsage(u);
  }
  if (api === "responses") {
    const u = obj(obj(d.response)?.usage);
    return u === undefined ? prev : openaiUsage(u);
  }
  if (d.type === "message_start") {
    const u = obj(obj(d.message)?.usage);
    return u === undefined ? prev : anthropicUsage(u, prev);
  }
  if (d.type === "message_delta") {
    const u = obj(d.usage);
    return u === undefined ? prev : anthropicUsage(u, prev);
  }
  return prev;
}
