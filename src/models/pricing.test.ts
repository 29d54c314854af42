import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError, UserError } from "../core/index.js";
import { parseModelId } from "./model-id.js";
import { costOf, findPrice, loadPricing } from "./pricing.js";
import { settingsFromOptions } from "./settings.js";
import { addCall, emptyTotals, zeroTokens } from "./usage.js";

const dir = mkdtempSync(join(tmpdir(), "lh-pricing-"));

describe("pricing", () => {
  it("charges fresh, cached, cache-write and output tokens at their own rates", () => {
    const price = { input: 3, output: 15, cached_input: 0.3, cache_write: 3.75 };
    const tokens = {
      inputTokens: 10_000,
      outputTokens: 2_000,
      cachedTokens: 6_000,
      cacheWriteTokens: 1_000,
      reasoningTokens: 500,
    };
    const c = costOf(tokens, price);
    expect(c.priced).toBe(true);
    expect(c.usd).toBeCloseTo((3_000 * 3 + 6_000 * 0.3 + 1_000 * 3.75 + 2_000 * 15) / 1e6, 12);
  });

  it("falls back to the input price when no cache price is given", () => {
    const t = { ...zeroTokens(), inputTokens: 1_000_000, cachedTokens: 500_000 };
    expect(costOf(t, { input: 2, output: 0 }).usd).toBeCloseTo(2, 10);
  });

  it("flags unknown models with cost 0 instead of failing", () => {
    const table = loadPricing(null);
    expect(findPrice(table, "openai-compatible:nobody-knows")).toBeNull();
    expect(costOf({ ...zeroTokens(), inputTokens: 99 }, null)).toEqual({ usd: 0, priced: false });
  });

  it("overlays a user file on the shipped defaults, matching bare model names too", () => {
    const path = join(dir, "pricing.json");
    writeFileSync(
      path,
      JSON.stringify({
        models: {
          "openai:gpt-4o": { input: 9, output: 9 },
          "my-local": { input: 0.1, output: 0.2, context_window: 32768 },
        },
      }),
    );
    const table = loadPricing(path);
    expect(findPrice(table, "openai:gpt-4o")?.input).toBe(9);
    expect(table.sources["openai:gpt-4o"]).toBe(path);
    expect(findPrice(table, "openai-compatible:my-local")?.context_window).toBe(32768);
    expect(findPrice(table, "anthropic:claude-sonnet-4-5")?.output).toBeGreaterThan(0);
  });

  it("rejects a malformed pricing file with its path and the bad field", () => {
    const path = join(dir, "bad.json");
    writeFileSync(path, JSON.stringify({ models: { x: { input: -1, output: 1 } } }));
    expect(() => loadPricing(path)).toThrow(InputError);
    expect(() => loadPricing(path)).toThrow(/bad\.json.*models\.x\.input/);
    writeFileSync(path, "{ nope");
    expect(() => loadPricing(path)).toThrow(/not valid JSON/);
  });

  it("sums call records into per-trial totals", () => {
    const call = (cost: number, priced: boolean, attempts: number) => ({
      model: "m",
      tokens: { inputTokens: 10, outputTokens: 5, cachedTokens: 2, cacheWriteTokens: 0, reasoningTokens: 1 },
      costUsd: cost,
      priced,
      modelSec: 1,
      retrySec: attempts - 1,
      attempts,
    });
    const t = [call(0.5, true, 1), call(0, false, 3)].reduce(addCall, emptyTotals());
    expect(t).toMatchObject({
      calls: 2,
      costUsd: 0.5,
      unpricedCalls: 1,
      retries: 2,
      retrySec: 2,
      modelSec: 2,
    });
    expect(t.tokens).toEqual({
      inputTokens: 20,
      outputTokens: 10,
      cachedTokens: 4,
      cacheWriteTokens: 0,
      reasoningTokens: 2,
    });
  });
});

describe("model ids and settings", () => {
  it("splits on the first colon only", () => {
    expect(parseModelId("openai-compatible:qwen3:8b")).toEqual({
      provider: "openai-compatible",
      model: "qwen3:8b",
    });
    expect(() => parseModelId("gpt-4o")).toThrow(UserError);
    expect(() => parseModelId("openai:")).toThrow(UserError);
  });

  it("reads settings from string options and rejects bad values", () => {
    const s = settingsFromOptions({
      temperature: "0.2",
      max_output_tokens: "2048",
      reasoning_effort: "high",
      stream: "true",
      other: "x",
    });
    expect(s).toMatchObject({
      temperature: 0.2,
      maxOutputTokens: 2048,
      reasoningEffort: "high",
      stream: true,
      maxRetries: 6,
    });
    expect(() => settingsFromOptions({ temperature: "warm" })).toThrow(/expected a number/);
    expect(() => settingsFromOptions({ reasoning_effort: "extreme" })).toThrow(UserError);
    expect(() => settingsFromOptions({ base_url: "not a url" })).toThrow(UserError);
  });
});
