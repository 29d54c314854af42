import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type LanguageModel, streamText } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Gateway, type GatewayOptions, startGateway } from "../../src/gateway/index.js";
import { ModelCallError, ModelClient, type PricingTable, parseSettings } from "../../src/models/index.js";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const REAL_KEY = "sk-real-provider-key-0123456789";
const pricing: PricingTable = {
  entries: { "openai-compatible:m1": { input: 1, output: 2, cached_input: 0.5 } },
  sources: {},
};

let llm: LoopbackLlm;
let dir: string;
const open: Gateway[] = [];
beforeAll(async () => {
  llm = await startLoopbackLlm();
  dir = mkdtempSync(join(tmpdir(), "lh-gw-test-"));
});
afterEach(async () => {
  llm.reset();
  await Promise.all(open.splice(0).map((g) => g.close()));
});
afterAll(async () => {
  await llm.close();
});

async function gateway(
  extra: Partial<GatewayOptions> = {},
  settings: Record<string, unknown> = {},
): Promise<Gateway> {
  const g = await startGateway({
    modelId: "openai-compatible:m1",
    settings: parseSettings({
      baseUrl: llm.url,
      apiKey: REAL_KEY,
      retryBaseMs: 1,
      retryMaxMs: 5,
      ...settings,
    }),
    env: {},
    pricing,
    recordPath: join(dir, `${Math.random().toString(36).slice(2)}.jsonl`),
    ...extra,
  });
  open.push(g);
  return g;
}

// Real clients of each API, pointed at the gateway with the trial's token and another model name.
const clients: Record<string, (g: Gateway) => LanguageModel> = {
  chat: (g) =>
    createOpenAI({ baseURL: `${g.endpoint.hostUrl}/v1`, apiKey: g.endpoint.token }).chat("asked-for"),
  responses: (g) =>
    createOpenAI({ baseURL: `${g.endpoint.hostUrl}/v1`, apiKey: g.endpoint.token }).responses("asked-for"),
  messages: (g) =>
    createAnthropic({ baseURL: `${g.endpoint.hostUrl}/v1`, apiKey: g.endpoint.token })("asked-for"),
};
const upstreamFormat = { chat: "openai", responses: "responses", messages: "anthropic" } as const;

describe("model gateway", () => {
  for (const api of ["chat", "responses", "messages"] as const) {
    for (const stream of [false, true]) {
      it(`relays ${api} ${stream ? "SSE" : "JSON"} and counts the upstream's usage`, async () => {
        const g = await gateway();
        llm.push(reply.text("first answer", { input: 1000, output: 300, cached: 400, reasoning: 50 }));
        llm.push(reply.text("second", { input: 10, output: 5 }));
        for (const expected of ["first answer", "second"]) {
          const model = clients[api]?.(g);
          if (model === undefined) throw new Error(api);
          const text = stream
            ? await streamText({ model, prompt: "hi" }).text
            : (await generateText({ model, prompt: "hi" })).text;
          expect(text).toBe(expected);
        }
        const u = g.usage();
        expect(u.calls).toBe(2);
        expect(u.tokens).toMatchObject({ inputTokens: 1010, outputTokens: 305, cachedTokens: 400 });
        if (api !== "messages") expect(u.tokens.reasoningTokens).toBe(50);
        // (600 fresh × $1 + 400 cached × $0.5 + 300 out × $2) + (10 × $1 + 5 × $2), per million.
        expect(u.costUsd).toBeCloseTo((600 + 200 + 600 + 10 + 10) / 1e6, 12);
        const seen = llm.requests.at(-1);
        expect(seen?.format).toBe(upstreamFormat[api]);
        expect(seen?.stream).toBe(stream);
        expect(seen?.body.model).toBe("m1");
        const auth = String(seen?.headers.authorization ?? seen?.headers["x-api-key"]);
        expect(auth).toContain(REAL_KEY);
        expect(JSON.stringify(seen?.headers)).not.toContain(g.endpoint.token);
      });
    }
  }

  it("refuses a wrong token with 401 in each API's error format", async () => {
    const g = await gateway();
    const before = llm.requests.length;
    const post = (path: string, headers: Record<string, string>) =>
      fetch(`${g.endpoint.hostUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ model: "m1", messages: [] }),
      });
    const openai = await post("/v1/chat/completions", { authorization: "Bearer wrong" });
    expect(openai.status).toBe(401);
    expect(await openai.json()).toMatchObject({ error: { code: "invalid_api_key" } });
    const anthropic = await post("/v1/messages", {
      "x-api-key": REAL_KEY,
      "anthropic-version": "2023-06-01",
    });
    expect(anthropic.status).toBe(401);
    expect(await anthropic.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    const none = await post("/responses", {});
    expect(none.status).toBe(401);
    expect(llm.requests.length).toBe(before);
  });

  it("stops at the token budget, refusing in the API's own format", async () => {
    const g = await gateway({ budget: { maxTokens: 100 } });
    const before = llm.requests.length;
    llm.push(reply.text("spends it all", { input: 120, output: 30 }));
    const model = clients.messages?.(g);
    if (model === undefined) throw new Error("no client");
    expect((await generateText({ model, prompt: "hi", maxRetries: 0 })).text).toBe("spends it all");
    const refused = await fetch(`${g.endpoint.hostUrl}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": g.endpoint.token, "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "m1", max_tokens: 10, messages: [{ role: "user", content: "more" }] }),
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("x-should-retry")).toBe("false");
    expect(await refused.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    const chat = await fetch(`${g.endpoint.hostUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${g.endpoint.token}` },
      body: JSON.stringify({ model: "m1", messages: [] }),
    });
    expect(await chat.json()).toMatchObject({
      error: { type: "insufficient_quota", code: "budget_exceeded" },
    });
    expect(g.budgetStop()).toMatchObject({ reason: "tokens" });
    expect(g.refusedCalls()).toBe(2);
    expect(llm.requests.length).toBe(before + 1);
    expect(g.usage().calls).toBe(1);
  });

  it("counts a streamed answer whose client hangs up before its usage arrives", async () => {
    // The upstream sends the text at once and the usage (which comes last) 400 ms later.
    const head = { id: "c1", created: 1, model: "m1", object: "chat.completion.chunk" };
    const sse = (d: unknown) => `data: ${JSON.stringify(d)}\n\n`;
    const upstream = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          sse({ ...head, choices: [{ index: 0, delta: { role: "assistant", content: "all of it" } }] }),
        );
        setTimeout(() => {
          res.write(sse({ ...head, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
          res.write(sse({ ...head, choices: [], usage: { prompt_tokens: 120, completion_tokens: 30 } }));
          res.end("data: [DONE]\n\n");
        }, 400);
      });
    });
    await new Promise<void>((ok) => upstream.listen(0, "127.0.0.1", ok));
    try {
      const port = (upstream.address() as AddressInfo).port;
      const g = await gateway({ budget: { maxTokens: 100 } }, { baseUrl: `http://127.0.0.1:${port}/v1` });
      const hangUp = new AbortController();
      const res = await fetch(`${g.endpoint.hostUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${g.endpoint.token}` },
        body: JSON.stringify({ model: "m1", stream: true, messages: [{ role: "user", content: "hi" }] }),
        signal: hangUp.signal,
      });
      const reader = res.body?.getReader();
      const first = await reader?.read();
      expect(new TextDecoder().decode(first?.value)).toContain("all of it");
      hangUp.abort(); // the agent has its text and leaves before the usage
      await expect.poll(() => g.usage().tokens.inputTokens, { timeout: 5000 }).toBe(120);
      expect(g.usage().tokens.outputTokens).toBe(30);
      // The budget is spent: the next call is refused.
      expect((await postChat(g)).status).toBe(400);
      expect(g.budgetStop()).toMatchObject({ reason: "tokens" });
    } finally {
      await new Promise<void>((ok) => upstream.close(() => ok()));
    }
  });

  it("does not let calls made side by side spend a budget several times over", async () => {
    const g = await gateway({ budget: { maxTokens: 500 } });
    const before = llm.requests.length;
    // Eight calls of 200 tokens each, all sent at once against a budget of 500.
    llm.setFallback(() => ({ kind: "text", text: "x", usage: { input: 150, output: 50 }, delayMs: 40 }));
    const statuses = await Promise.all(Array.from({ length: 8 }, () => postChat(g).then((r) => r.status)));
    // 200 + 200 = 400 leaves room; the third call crosses to 600 and every later one is refused.
    expect(statuses.filter((st) => st === 200)).toHaveLength(3);
    expect(statuses.filter((st) => st === 400)).toHaveLength(5);
    expect(llm.requests.length).toBe(before + 3);
    const u = g.usage().tokens;
    expect(u.inputTokens + u.outputTokens).toBe(600);
    expect(g.refusedCalls()).toBe(5);
  });

  it("stops at the cost budget, refusing a Responses call in OpenAI's format", async () => {
    const g = await gateway({ budget: { maxCostUsd: 0.001 } });
    const before = llm.requests.length;
    // 1000 in × $1 + 300 out × $2 per million: $0.0016, past the $0.001 allowed.
    llm.push(reply.text("costly", { input: 1000, output: 300 }));
    const model = clients.responses?.(g);
    if (model === undefined) throw new Error("no client");
    expect((await generateText({ model, prompt: "hi", maxRetries: 0 })).text).toBe("costly");
    const refused = await fetch(`${g.endpoint.hostUrl}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${g.endpoint.token}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "m1", input: "more" }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: {
        type: "insufficient_quota",
        code: "budget_exceeded",
        message: expect.stringMatching(/cost budget/),
      },
    });
    expect(g.budgetStop()).toMatchObject({ reason: "cost" });
    expect(llm.requests.length).toBe(before + 1);
  });

  it("retries an upstream 429 then 500, honouring Retry-After, and counts the success once", async () => {
    // Retry-After is honoured up to the policy's longest wait (models/retry.ts).
    const g = await gateway({}, { retryMaxMs: 1000 });
    const before = llm.requests.length;
    llm.push(reply.error(429, 0.2), reply.error(500), reply.text("third time", { input: 5, output: 2 }));
    // longhaul's own client, as its agents use it through a gateway (no retries of its own).
    const client = clientOf(g);
    const r = await client.complete({ messages: [{ role: "user", content: "hi" }] });
    expect(r.text).toBe("third time");
    // The gateway's retry time reaches the client as retry time, kept out of the agent's budget.
    expect(r.record.retrySec).toBeGreaterThanOrEqual(0.19);
    expect(r.record.modelSec).toBeLessThan(r.record.retrySec);
    expect(llm.requests.length).toBe(before + 3);
    const u = g.usage();
    expect(u).toMatchObject({ calls: 1, retries: 2 });
    expect(g.fault()).toBeNull();
    await g.close();
    const line = JSON.parse(readFileSync(recordOf(g), "utf8").trim()) as { attempts: number; status: number };
    expect(line).toMatchObject({ attempts: 3, status: 200 });
  });

  it("retries an upstream error whose body never finishes, within timeout_sec", async () => {
    const g = await gateway({}, { timeoutSec: 0.3 });
    llm.push(
      { kind: "error", status: 503, stall: true },
      reply.text("after the stall", { input: 2, output: 1 }),
    );
    const t0 = performance.now();
    const r = await clientOf(g, { timeoutSec: 30 }).complete({ messages: [{ role: "user", content: "hi" }] });
    expect(r.text).toBe("after the stall");
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(g.usage()).toMatchObject({ calls: 1, retries: 1 });
  });

  it("gives up after its retries as an infrastructure fault, relaying the upstream's error", async () => {
    const faults: string[] = [];
    const g = await gateway({ onFault: (f) => faults.push(f.kind) }, { maxRetries: 1 });
    llm.push(reply.error(503), reply.error(503));
    const res = await postChat(g);
    expect(res.status).toBe(503);
    expect(g.fault()).toMatchObject({ kind: "infra" });
    expect(faults).toEqual(["infra"]);
  });

  for (const stream of [false, true]) {
    const kind = stream ? "SSE" : "JSON";
    it(`fails a ${kind} answer whose upstream connection breaks off, never ending it as if whole`, async () => {
      const g = await gateway();
      llm.push(reply.cut("an answer that the upstream drops half-way through"));
      const res = await postChat(g, { stream });
      expect(res.status).toBe(200);
      // The client's read fails (and its SDK may retry); a clean end would pass a cut answer as complete.
      await expect(res.text()).rejects.toThrow(/terminated/);
      await g.close();
      const line = JSON.parse(readFileSync(recordOf(g), "utf8").trim()) as { refused: string };
      expect(line.refused).toMatch(/^stream cut: /);
    });

    it(`cuts a ${kind} answer whose upstream goes silent mid-body after timeout_sec`, async () => {
      const g = await gateway({}, { timeoutSec: 0.3 });
      llm.push(reply.stall("an answer that stops coming"));
      // longhaul's own client, with a limit of its own far past the gateway's.
      const client = clientOf(g, { stream, timeoutSec: 30 });
      const t0 = performance.now();
      const err = await client
        .complete({ messages: [{ role: "user", content: "hi" }] })
        .catch((e: unknown) => e);
      expect(performance.now() - t0).toBeLessThan(5000);
      expect(err).toBeInstanceOf(ModelCallError);
      // The provider's failure: the trial is retried as an infrastructure error, not scored.
      expect((err as ModelCallError).retryable).toBe(true);
      await g.close();
      const line = JSON.parse(readFileSync(recordOf(g), "utf8").trim()) as { refused: string };
      expect(line.refused).toMatch(/upstream sent nothing for 0.3 s/);
    });
  }

  for (const stream of [false, true]) {
    it(`flags the cost of a ${stream ? "SSE" : "JSON"} answer without usage fields as unknown, not $0`, async () => {
      const g = await gateway();
      const head = { id: "c1", created: 1, model: "m1" };
      const message = { role: "assistant", content: "no usage here" };
      const sse = (d: unknown) => `data: ${JSON.stringify(d)}\n\n`;
      llm.push(
        stream
          ? reply.raw(
              sse({ ...head, object: "chat.completion.chunk", choices: [{ index: 0, delta: message }] }) +
                sse({
                  ...head,
                  object: "chat.completion.chunk",
                  choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
                }) +
                "data: [DONE]\n\n",
              "text/event-stream",
            )
          : reply.raw(
              JSON.stringify({
                ...head,
                object: "chat.completion",
                choices: [{ index: 0, message, finish_reason: "stop" }],
              }),
              "application/json",
            ),
        reply.text("metered", { input: 10, output: 5 }),
      );
      const client = clientOf(g, { stream });
      const first = await client.complete({ messages: [{ role: "user", content: "hi" }] });
      expect(first.text).toBe("no usage here");
      expect(first.record).toMatchObject({ costUsd: 0, priced: false });
      const second = await client.complete({ messages: [{ role: "user", content: "again" }] });
      // 10 in × $1 + 5 out × $2, per million.
      expect(second.record).toMatchObject({ costUsd: 20 / 1e6, priced: true });
      // Both counts agree: two calls, one of unknown cost, so the trial's cost_known is false.
      expect(g.usage()).toMatchObject({ calls: 2, unpricedCalls: 1, costUsd: 20 / 1e6 });
      expect(client.totals()).toMatchObject({ calls: 2, unpricedCalls: 1, costUsd: 20 / 1e6 });
    });
  }

  it("stops the job on an upstream 404 (no such model), as longhaul's own client does", async () => {
    const faults: string[] = [];
    const g = await gateway({ onFault: (f) => faults.push(f.kind) });
    llm.push(reply.error(404));
    const res = await postChat(g);
    // Relayed to the agent as it came, and the trial is stopped as a configuration error.
    expect(res.status).toBe(404);
    expect(g.fault()).toMatchObject({ kind: "config", message: expect.stringMatching(/HTTP 404/) });
    expect(faults).toEqual(["config"]);
  });

  it("keeps the agent from choosing the organisation or project its calls are billed to", async () => {
    const g = await gateway();
    llm.push(reply.text("billed as configured", { input: 3, output: 3 }));
    const res = await fetch(`${g.endpoint.hostUrl}/v1/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${g.endpoint.token}`,
        "openai-organization": "org-someone-else",
        "openai-project": "proj_someone_else",
        cookie: "session=abc",
        "x-custom": "kept",
      },
      body: JSON.stringify({ model: "m1", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(200);
    const seen = llm.requests.at(-1)?.headers ?? {};
    expect(seen["openai-organization"]).toBeUndefined();
    expect(seen["openai-project"]).toBeUndefined();
    expect(seen.cookie).toBeUndefined();
    expect(seen["x-custom"]).toBe("kept");
  });

  it("never writes the real key or the trial token to the record file", async () => {
    const g = await gateway();
    llm.push(reply.text("noted", { input: 3, output: 3 }));
    const res = await fetch(`${g.endpoint.hostUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${g.endpoint.token}`, "x-custom-key": REAL_KEY },
      // An agent that pastes its own credential into a prompt: scrubbed from the body too.
      body: JSON.stringify({
        model: "m1",
        messages: [{ role: "user", content: `my key ${g.endpoint.token}` }],
      }),
    });
    expect(res.status).toBe(200);
    await g.close();
    const text = readFileSync(recordOf(g), "utf8");
    expect(text).not.toContain(REAL_KEY);
    expect(text).not.toContain(g.endpoint.token);
    expect(text).toContain("[redacted]");
    const line = JSON.parse(text.trim()) as Record<string, unknown>;
    expect(line).toMatchObject({
      api: "chat",
      path: "/chat/completions",
      status: 200,
      model: "openai-compatible:m1",
    });
    expect(line.usage).toMatchObject({ input_tokens: 3, output_tokens: 3 });
  });

  it("leaves no part of a secret in a body cut to the record's limit", async () => {
    const g = await gateway({ recordLimits: { maxBodyBytes: 1000, maxFileBytes: 1 << 20 } });
    llm.push(reply.text("noted", { input: 3, output: 3 }));
    // The request body is cut at byte 1000, 25 characters into the token it quotes.
    const head = '{"model":"m1","messages":[{"role":"user","content":"';
    const filler = "x".repeat(1000 - head.length - 25);
    const res = await postChat(g, {
      messages: [{ role: "user", content: `${filler}${g.endpoint.token}${"y".repeat(500)}` }],
    });
    expect(res.status).toBe(200);
    await g.close();
    const text = readFileSync(recordOf(g), "utf8");
    expect(text).toContain('"truncated":true');
    expect(text).not.toContain(g.endpoint.token.slice(0, 20));
  });

  it("serves the same API over its unix socket", async () => {
    const g = await gateway();
    llm.push(reply.text("over the socket", { input: 4, output: 4 }));
    const body = JSON.stringify({ model: "m1", messages: [{ role: "user", content: "hi" }] });
    const answer = await new Promise<{ status: number; text: string }>((ok, fail) => {
      const req = request(
        {
          socketPath: g.endpoint.socketPath,
          path: "/v1/chat/completions",
          method: "POST",
          headers: { authorization: `Bearer ${g.endpoint.token}`, "content-type": "application/json" },
        },
        (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c.toString()));
          res.on("end", () => ok({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", fail);
      req.end(body);
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ choices: [{ message: { content: "over the socket" } }] });
    expect(g.usage().calls).toBe(1);
  });

  it("lists the trial's model and counts tokens for Anthropic clients", async () => {
    const g = await gateway();
    const headers = { authorization: `Bearer ${g.endpoint.token}` };
    const list = await fetch(`${g.endpoint.hostUrl}/v1/models`, { headers });
    expect(await list.json()).toMatchObject({ data: [{ id: "m1" }] });
    const count = await fetch(`${g.endpoint.hostUrl}/v1/messages/count_tokens`, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: "m1", messages: [{ role: "user", content: "a".repeat(400) }] }),
    });
    expect(((await count.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(90);
  });
});

/** longhaul's own client, as its agents use it through a gateway (no retries of its own). */
function clientOf(g: Gateway, settings: Record<string, unknown> = {}): ModelClient {
  return new ModelClient("openai-compatible:m1", {
    settings: parseSettings({
      baseUrl: `${g.endpoint.hostUrl}/v1`,
      apiKey: g.endpoint.token,
      maxRetries: 0,
      ...settings,
    }),
    pricing,
    env: {},
  });
}

/** A Chat Completions call with the trial's token, as an agent's client sends it. */
function postChat(g: Gateway, extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${g.endpoint.hostUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${g.endpoint.token}` },
    body: JSON.stringify({ model: "m1", messages: [{ role: "user", content: "hi" }], ...extra }),
  });
}

function recordOf(g: Gateway): string {
  if (g.recordPath === null) throw new Error("no record file");
  return g.recordPath;
}
