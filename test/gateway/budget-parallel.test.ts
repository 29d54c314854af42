import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { worstCaseSpend } from "../../src/gateway/call-bound.js";
import { type Gateway, type GatewayBudget, startGateway } from "../../src/gateway/index.js";
import { type PricingTable, parseSettings } from "../../src/models/index.js";
import { type LoopbackLlm, startLoopbackLlm } from "../support/loopback-llm.js";

/** Budgets against calls made side by side: what calls in flight may spend before they answer. */
const pricing: PricingTable = {
  entries: { "openai-compatible:m1": { input: 1, output: 2, cached_input: 0.5 } },
  sources: {},
};

let llm: LoopbackLlm;
const open: Gateway[] = [];
beforeAll(async () => {
  llm = await startLoopbackLlm();
});
afterEach(async () => {
  llm.reset();
  await Promise.all(open.splice(0).map((g) => g.close()));
});
afterAll(async () => {
  await llm.close();
});

async function gateway(budget: GatewayBudget, settings: Record<string, unknown> = {}): Promise<Gateway> {
  const g = await startGateway({
    modelId: "openai-compatible:m1",
    settings: parseSettings({ baseUrl: llm.url, apiKey: "sk-real", ...settings }),
    env: {},
    pricing,
    budget,
    recordPath: null,
  });
  open.push(g);
  return g;
}

/** A Chat Completions call whose prompt is `bytes` long, sized as a real one would be. */
async function call(g: Gateway, bytes: number, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await fetch(`${g.endpoint.hostUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${g.endpoint.token}` },
    body: JSON.stringify({ model: "m1", messages: [{ role: "user", content: "x".repeat(bytes) }], ...extra }),
  });
  await res.arrayBuffer();
  return res.status;
}

const spent = (g: Gateway) => g.usage().tokens.inputTokens + g.usage().tokens.outputTokens;

describe("budget gate with calls side by side", () => {
  // The pattern that a gate sizing calls in flight by the largest call seen lets through: a tiny
  // first call, then eight huge ones at once (it spent 3210 tokens of 500, $0.004012 of $0.001).
  for (const limit of ["tokens", "cost"] as const) {
    it(`spends at most one call past a ${limit} budget when huge calls follow a tiny one side by side`, async () => {
      const g = await gateway(limit === "tokens" ? { maxTokens: 500 } : { maxCostUsd: 0.001 });
      const before = llm.requests.length;
      llm.push({ kind: "text", text: "tiny", usage: { input: 8, output: 2 } });
      expect(await call(g, 40)).toBe(200);
      // 400 tokens a call: 300 in × $1 + 100 out × $2 per million, $0.0005.
      llm.setFallback(() => ({
        kind: "text",
        text: "huge",
        usage: { input: 300, output: 100 },
        delayMs: 300,
      }));
      const statuses = await Promise.all(Array.from({ length: 8 }, () => call(g, 1200)));
      // 10, then 410 (under both limits), then the call that crosses: 810 tokens, $0.001012.
      expect(statuses.filter((st) => st === 200)).toHaveLength(2);
      expect(statuses.filter((st) => st === 400)).toHaveLength(6);
      expect(llm.requests.length).toBe(before + 3);
      expect(spent(g)).toBe(810);
      expect(g.usage().costUsd).toBeCloseTo(1012 / 1e6, 12);
      expect(g.budgetStop()).toMatchObject({ reason: limit });
    });
  }

  for (const bounded of ["an output cap", "a small context window"] as const) {
    it(`runs calls side by side while the budget holds each one's worst case (${bounded})`, async () => {
      const g =
        bounded === "an output cap"
          ? await gateway({ maxTokens: 100_000 })
          : await gateway({ maxTokens: 100_000 }, { contextWindow: 8000 });
      const extra = bounded === "an output cap" ? { max_tokens: 1000 } : {};
      // Each answer takes a second; when each call reaches the server is recorded.
      const DELAY_MS = 1000;
      const arrived: number[] = [];
      llm.setFallback(() => {
        arrived.push(performance.now());
        return { kind: "text", text: "x", usage: { input: 150, output: 50 }, delayMs: DELAY_MS };
      });
      // No call has answered yet: the worst cases alone (about 1.6k or 8k tokens) size the calls.
      const four = () => Promise.all(Array.from({ length: 4 }, () => call(g, 600, extra)));
      expect(await four()).toEqual([200, 200, 200, 200]);
      expect(await four()).toEqual([200, 200, 200, 200]);
      // Side by side: every call of a round reached the server before the first could answer
      // (held one after another, the fourth would come at least three answers later).
      expect(arrived).toHaveLength(8);
      for (const round of [arrived.slice(0, 4), arrived.slice(4)]) {
        expect(
          Math.max(...round) - Math.min(...round),
          "ms between a round's first and last call",
        ).toBeLessThan(DELAY_MS);
      }
      expect(spent(g)).toBe(1600);
    });
  }

  it("holds a call that could spend what is left until the calls in flight end", async () => {
    // No output cap and the default window (128k): one such call could spend the whole budget.
    const g = await gateway({ maxTokens: 100_000 });
    llm.setFallback(() => ({ kind: "text", text: "x", usage: { input: 150, output: 50 }, delayMs: 150 }));
    const t0 = performance.now();
    expect(await Promise.all(Array.from({ length: 3 }, () => call(g, 600)))).toEqual([200, 200, 200]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(440);
    expect(spent(g)).toBe(600);
  });
});

describe("worst case of one call", () => {
  const model = { contextWindow: 10_000, price: { input: 2, output: 10, cache_write: 2.5 } };

  it("is the prompt's bytes plus the output cap, within the context window", () => {
    expect(worstCaseSpend("chat", { max_tokens: 500 }, 1200, model)).toEqual({
      tokens: 1700,
      usd: (1200 * 2.5 + 500 * 10) / 1e6,
    });
    expect(worstCaseSpend("chat", { max_completion_tokens: 300, max_tokens: 900 }, 100, model).tokens).toBe(
      400,
    );
    expect(worstCaseSpend("messages", { max_tokens: 20_000 }, 100, model).tokens).toBe(10_000);
    expect(worstCaseSpend("responses", { max_output_tokens: 50 }, 100, model).tokens).toBe(150);
    // No cap: the answer can fill the window.
    expect(worstCaseSpend("chat", {}, 100, { ...model, price: null })).toEqual({ tokens: 10_000, usd: 0 });
  });

  it("counts every answer asked for, and a stored conversation's unseen prompt", () => {
    expect(worstCaseSpend("chat", { max_tokens: 100, n: 3 }, 100, model).tokens).toBe(400);
    expect(
      worstCaseSpend("responses", { max_output_tokens: 50, previous_response_id: "r1" }, 100, model),
    ).toEqual({ tokens: 10_000, usd: (10_000 * 2.5 + 50 * 10) / 1e6 });
  });
});
