import type { LanguageModelUsage } from "ai";

/**
 * Token counts of one model call, normalised across providers. `inputTokens` counts every prompt
 * token, cached ones included; `cachedTokens` and `cacheWriteTokens` are the parts of it that were
 * read from or written to the provider's prompt cache. `reasoningTokens` is part of `outputTokens`.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export function zeroTokens(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}

/**
 * A token count as a provider reported it: a whole number from 0 to 2^53 − 1, or undefined when
 * it is not a usable number. A server may send anything (1e20, -5, NaN); a count past the safe
 * integers would make the stored result unreadable, so it is held at the largest safe one.
 */
export function tokenCount(v: unknown): number | undefined {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) return undefined;
  return Math.min(Number.MAX_SAFE_INTEGER, Math.round(v));
}

function n(v: number | undefined): number {
  return tokenCount(v) ?? 0;
}

/** a + b, held at the largest safe integer (see tokenCount). */
function sum(a: number, b: number): number {
  return Math.min(Number.MAX_SAFE_INTEGER, a + b);
}

export function tokensFromSdk(u: LanguageModelUsage | undefined): TokenUsage {
  if (u === undefined) return zeroTokens();
  return {
    inputTokens: n(u.inputTokens),
    outputTokens: n(u.outputTokens),
    cachedTokens: n(u.inputTokenDetails?.cacheReadTokens ?? u.cachedInputTokens),
    cacheWriteTokens: n(u.inputTokenDetails?.cacheWriteTokens),
    reasoningTokens: n(u.outputTokenDetails?.reasoningTokens ?? u.reasoningTokens),
  };
}

export function addTokens(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: sum(a.inputTokens, b.inputTokens),
    outputTokens: sum(a.outputTokens, b.outputTokens),
    cachedTokens: sum(a.cachedTokens, b.cachedTokens),
    cacheWriteTokens: sum(a.cacheWriteTokens, b.cacheWriteTokens),
    reasoningTokens: sum(a.reasoningTokens, b.reasoningTokens),
  };
}

/** What one call cost and how long it took; the unit that per-trial totals are summed from. */
export interface CallRecord {
  model: string;
  tokens: TokenUsage;
  costUsd: number;
  /** False when the model has no price or the answer reported no usage: the cost is recorded as 0 and flagged, never guessed. */
  priced: boolean;
  /** Time of the successful attempt only. */
  modelSec: number;
  /** Time lost to failed attempts and backoff waits; not charged to the agent. */
  retrySec: number;
  attempts: number;
}

export interface UsageTotals {
  calls: number;
  tokens: TokenUsage;
  costUsd: number;
  /** Calls whose model had no price. */
  unpricedCalls: number;
  modelSec: number;
  retrySec: number;
  retries: number;
}

export function emptyTotals(): UsageTotals {
  return {
    calls: 0,
    tokens: zeroTokens(),
    costUsd: 0,
    unpricedCalls: 0,
    modelSec: 0,
    retrySec: 0,
    retries: 0,
  };
}

export function addCall(t: UsageTotals, c: CallRecord): UsageTotals {
  return {
    calls: t.calls + 1,
    tokens: addTokens(t.tokens, c.tokens),
    costUsd: t.costUsd + c.costUsd,
    unpricedCalls: t.unpricedCalls + (c.priced ? 0 : 1),
    modelSec: t.modelSec + c.modelSec,
    retrySec: t.retrySec + c.retrySec,
    retries: t.retries + Math.max(0, c.attempts - 1),
  };
}

export function sumCalls(calls: readonly CallRecord[]): UsageTotals {
  return calls.reduce(addCall, emptyTotals());
}
