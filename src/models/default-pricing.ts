import type { PriceEntry } from "./pricing.js";

/**
 * Shipped list prices in USD per million tokens, as published by the providers in late 2025.
 * Prices change: a user file (~/.longhaul/pricing.json or LONGHAUL_PRICING) overrides any entry.
 */
export const DEFAULT_PRICES: Record<string, PriceEntry> = {
  "openai:gpt-4o": { input: 2.5, output: 10, cached_input: 1.25, context_window: 128_000 },
  "openai:gpt-4o-mini": { input: 0.15, output: 0.6, cached_input: 0.075, context_window: 128_000 },
  "openai:gpt-4.1": { input: 2, output: 8, cached_input: 0.5, context_window: 1_047_576 },
  "openai:gpt-4.1-mini": { input: 0.4, output: 1.6, cached_input: 0.1, context_window: 1_047_576 },
  "openai:gpt-4.1-nano": { input: 0.1, output: 0.4, cached_input: 0.025, context_window: 1_047_576 },
  "openai:o3": { input: 2, output: 8, cached_input: 0.5, context_window: 200_000 },
  "openai:o4-mini": { input: 1.1, output: 4.4, cached_input: 0.275, context_window: 200_000 },
  "openai:gpt-5": { input: 1.25, output: 10, cached_input: 0.125, context_window: 400_000 },
  "openai:gpt-5-mini": { input: 0.25, output: 2, cached_input: 0.025, context_window: 400_000 },
  "openai:gpt-5-nano": { input: 0.05, output: 0.4, cached_input: 0.005, context_window: 400_000 },
  "anthropic:claude-opus-4-1": {
    input: 15,
    output: 75,
    cached_input: 1.5,
    cache_write: 18.75,
    context_window: 200_000,
  },
  "anthropic:claude-opus-4-5": {
    input: 5,
    output: 25,
    cached_input: 0.5,
    cache_write: 6.25,
    context_window: 200_000,
  },
  "anthropic:claude-sonnet-4-5": {
    input: 3,
    output: 15,
    cached_input: 0.3,
    cache_write: 3.75,
    context_window: 200_000,
  },
  "anthropic:claude-haiku-4-5": {
    input: 1,
    output: 5,
    cached_input: 0.1,
    cache_write: 1.25,
    context_window: 200_000,
  },
  "openai-compatible:deepseek-chat": {
    input: 0.28,
    output: 0.42,
    cached_input: 0.028,
    context_window: 128_000,
  },
  "openai-compatible:deepseek-reasoner": {
    input: 0.28,
    output: 0.42,
    cached_input: 0.028,
    context_window: 128_000,
  },
};
