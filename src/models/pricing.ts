import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { InputError } from "../core/index.js";
import { DEFAULT_PRICES } from "./default-pricing.js";
import type { TokenUsage } from "./usage.js";

/** One model's prices in USD per million tokens, plus facts the harness needs about it. */
export const priceEntrySchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  /** Price of prompt tokens read from cache; defaults to `input`. */
  cached_input: z.number().nonnegative().optional(),
  /** Price of prompt tokens written to cache (Anthropic); defaults to `input`. */
  cache_write: z.number().nonnegative().optional(),
  context_window: z.number().int().positive().optional(),
});
export type PriceEntry = z.infer<typeof priceEntrySchema>;

export const pricingFileSchema = z.strictObject({
  models: z.record(z.string().min(1), priceEntrySchema),
});

export interface PricingTable {
  entries: Record<string, PriceEntry>;
  /** Where each entry came from: "default" or a file path. */
  sources: Record<string, string>;
}

export function defaultPricingPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.LONGHAUL_PRICING ?? join(homedir(), ".longhaul", "pricing.json");
}

export function parsePricingFile(path: string, text: string): Record<string, PriceEntry> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new InputError(path, undefined, undefined, `not valid JSON: ${(e as Error).message}`);
  }
  const r = pricingFileSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue?.path.join(".") ?? "";
    throw new InputError(path, undefined, field, `${field}: ${issue?.message ?? "invalid"}`);
  }
  return r.data.models;
}

// Prices set for this process (the config file's `pricing`), laid over the shipped table and the file.
const overrides: { entries: Record<string, PriceEntry>; source: string } = { entries: {}, source: "" };

/** Sets per-model prices that every later loadPricing() lays over the others; `source` names their file. */
export function setPricingOverrides(entries: Record<string, PriceEntry>, source: string): void {
  overrides.entries = { ...entries };
  overrides.source = source;
}

/** Shipped defaults overlaid with the user's file when it exists (a missing file is not an error). */
export function loadPricing(path: string | null = defaultPricingPath()): PricingTable {
  const entries: Record<string, PriceEntry> = { ...DEFAULT_PRICES };
  const sources: Record<string, string> = {};
  for (const k of Object.keys(entries)) sources[k] = "default";
  if (path !== null && existsSync(path)) {
    for (const [k, v] of Object.entries(parsePricingFile(path, readFileSync(path, "utf8")))) {
      entries[k] = v;
      sources[k] = path;
    }
  }
  for (const [k, v] of Object.entries(overrides.entries)) {
    entries[k] = v;
    sources[k] = overrides.source;
  }
  return { entries, sources };
}

/** Exact `provider:model` first, then the bare model name (entries written without a provider). */
export function findPrice(table: PricingTable, modelId: string): PriceEntry | null {
  const exact = table.entries[modelId];
  if (exact) return exact;
  const i = modelId.indexOf(":");
  const bare = i >= 0 ? modelId.slice(i + 1) : modelId;
  return table.entries[bare] ?? null;
}

export interface Cost {
  usd: number;
  priced: boolean;
}

export function costOf(tokens: TokenUsage, price: PriceEntry | null): Cost {
  if (price === null) return { usd: 0, priced: false };
  const cached = Math.min(tokens.cachedTokens, tokens.inputTokens);
  const written = Math.min(tokens.cacheWriteTokens, tokens.inputTokens - cached);
  const fresh = tokens.inputTokens - cached - written;
  const usd =
    (fresh * price.input +
      cached * (price.cached_input ?? price.input) +
      written * (price.cache_write ?? price.input) +
      tokens.outputTokens * price.output) /
    1_000_000;
  return { usd, priced: true };
}
