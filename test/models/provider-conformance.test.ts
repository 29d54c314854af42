import { tool } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { listModelProviders, ModelCallError, ModelClient, parseSettings } from "../../src/models/index.js";
import type { PricingTable } from "../../src/models/pricing.js";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";

// The SDK warns that the scripted model names are unknown; that is expected here.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let llm: LoopbackLlm;
beforeAll(async () => {
  llm = await startLoopbackLlm();
});
afterAll(async () => {
  await llm.close();
});
// A failed test's unused replies must not answer the next test's calls.
afterEach(() => llm.reset());

const pricing: PricingTable = {
  entries: {
    "openai-compatible:m1": { input: 1, output: 2, cached_input: 0.5 },
    "openai:m1": { input: 1, output: 2, cached_input: 0.5 },
    "anthropic:m1": { input: 1, output: 2, cached_input: 0.5 },
  },
  sources: {},
};

function client(provider: string, stream: boolean, extra: Record<string, unknown> = {}): ModelClient {
  const settings = parseSettings({
    baseUrl: llm.url,
    apiKey: "sk-test",
    stream,
    retryBaseMs: 5,
    retryMaxMs: 20,
    maxRetries: 4,
    temperature: 0.3,
    ...extra,
  });
  return new ModelClient(`${provider}:m1`, { settings, pricing, env: {} });
}

const user = (t: string) => [{ role: "user" as const, content: t }];
const tools = { exec: tool({ description: "run", inputSchema: z.object({ command: z.string() }) }) };

for (const p of listModelProviders()) {
  for (const stream of [false, true]) {
    describe(`${p.name} (${stream ? "SSE" : "JSON"})`, () => {
      it("returns text with full token accounting and a cost from the table", async () => {
        llm.push(reply.text("hello there", { input: 1000, output: 300, cached: 400, reasoning: 120 }));
        const before = llm.requests.length;
        const c = client(p.name, stream);
        const r = await c.complete({ system: "be brief", messages: user("hi") });
        expect(r.text).toBe("hello there");
        expect(r.record.tokens).toMatchObject({ inputTokens: 1000, outputTokens: 300, cachedTokens: 400 });
        expect(r.record.tokens.reasoningTokens).toBe(120);
        // 600 fresh × $1 + 400 cached × $0.5 + 300 out × $2, per million.
        expect(r.record.costUsd).toBeCloseTo((600 + 200 + 600) / 1e6, 12);
        expect(r.record.priced).toBe(true);
        expect(r.record.attempts).toBe(1);
        const req = llm.requests[before];
        expect(req?.format).toBe(p.name === "anthropic" ? "anthropic" : "openai");
        expect(req?.stream).toBe(stream);
        expect(req?.body.model).toBe("m1");
        expect(req?.body.temperature).toBe(0.3);
        const auth = p.name === "anthropic" ? req?.headers["x-api-key"] : req?.headers.authorization;
        expect(String(auth)).toContain("sk-test");
        expect(JSON.stringify(req?.body)).toContain("be brief");
      });

      it("returns tool calls and the assistant message to append", async () => {
        llm.push(
          reply.tools([{ name: "exec", arguments: { command: "ls -la" } }], { input: 50, output: 10 }),
        );
        const r = await client(p.name, stream).complete({ messages: user("list"), tools });
        expect(r.toolCalls).toHaveLength(1);
        expect(r.toolCalls[0]).toMatchObject({ name: "exec", input: { command: "ls -la" }, invalid: false });
        expect(r.responseMessages.at(-1)?.role).toBe("assistant");
        const last = llm.requests.at(-1);
        expect(JSON.stringify(last?.body.tools)).toContain("exec");
      });

      it("retries a burst of 500s and a 429, recording retry time apart from model time", async () => {
        llm.push(
          reply.error(500),
          reply.error(503),
          reply.error(429, 0),
          reply.text("ok", { input: 5, output: 1 }),
        );
        const c = client(p.name, stream);
        const r = await c.complete({ messages: user("x") });
        expect(r.text).toBe("ok");
        expect(r.record.attempts).toBe(4);
        expect(r.record.retrySec).toBeGreaterThan(0);
        expect(c.totals().retries).toBe(3);
      });

      it("cuts a hung connection at the attempt timeout and retries", async () => {
        llm.push(reply.hang(), reply.text("after hang"));
        const c = client(p.name, stream, { timeoutSec: 0.3 });
        const r = await c.complete({ messages: user("x") });
        expect(r.text).toBe("after hang");
        expect(r.record.attempts).toBe(2);
        expect(r.record.retrySec).toBeGreaterThanOrEqual(0.25);
      });

      it("cuts an answer that stalls half-way through its body and retries", async () => {
        llm.push(reply.stall("a long answer that never completes"), reply.text("whole"));
        const c = client(p.name, stream, { timeoutSec: 0.3 });
        const r = await c.complete({ messages: user("x") });
        expect(r.text).toBe("whole");
        expect(r.record.attempts).toBe(2);
      });

      it("retries an answer whose connection is reset half-way through its body", async () => {
        llm.push(reply.cut("a long answer that breaks off"), reply.text("whole"));
        const r = await client(p.name, stream).complete({ messages: user("x") });
        expect(r.text).toBe("whole");
        expect(r.record.attempts).toBe(2);
      });

      it("retries a success status whose body is not the API's (a proxy's page)", async () => {
        llm.push(reply.raw("<html>502 from a proxy, sent as 200</html>"), reply.text("real"));
        const r = await client(p.name, stream).complete({ messages: user("x") });
        expect(r.text).toBe("real");
        expect(r.record.attempts).toBe(2);
        // Still broken after every retry: the provider's failure (retryable), never the agent's.
        llm.push(reply.raw("<html>again</html>"), reply.raw("<html>and again</html>"));
        const err = await client(p.name, stream, { maxRetries: 1 })
          .complete({ messages: user("x") })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ModelCallError);
        expect((err as ModelCallError).retryable).toBe(true);
        expect((err as ModelCallError).attempts).toBe(2);
      });

      // SSE only: an SDK's event reader finds no event in these and some took them for an empty answer.
      // (A whole JSON answer of the API is used instead: see whole-json-stream.test.ts.)
      if (stream)
        it("retries a streamed answer that is not SSE or ends before its finish, then fails as the provider's", async () => {
          const broken = [
            reply.raw(
              JSON.stringify({ error: { message: "overloaded", type: "server_error" } }),
              "application/json",
            ),
            reply.raw("<html>proxy page sent as JSON</html>", "application/json"),
            reply.raw("", "text/event-stream"),
            reply.raw(unfinishedSse(p.name), "text/event-stream"),
          ];
          for (const b of broken) {
            llm.push(b, reply.text("real", { input: 3, output: 1 }));
            const r = await client(p.name, stream).complete({ messages: user("x") });
            expect(r.text).toBe("real");
            expect(r.record.attempts).toBe(2);
            expect(r.record.tokens.inputTokens).toBe(3);
          }
          llm.push(...broken.slice(0, 2));
          const err = await client(p.name, stream, { maxRetries: 1 })
            .complete({ messages: user("x") })
            .catch((e: unknown) => e);
          expect(err).toBeInstanceOf(ModelCallError);
          expect((err as ModelCallError).retryable).toBe(true);
          expect((err as ModelCallError).attempts).toBe(2);
          expect((err as Error).message).toMatch(/without SSE \(content-type application\/json\)/);
        });

      // SSE only: an error event inside an answer that began with a 200.
      if (stream)
        it("retries a stream whose provider reports overload inside it, not a 'bad request' one", async () => {
          llm.push({ kind: "stream-error", errorType: "overloaded_error" }, reply.text("after overload"));
          const r = await client(p.name, stream).complete({ messages: user("x") });
          expect(r.text).toBe("after overload");
          expect(r.record.attempts).toBe(2);
          llm.push({ kind: "stream-error", errorType: "invalid_request_error" }, reply.text("never"));
          const err = await client(p.name, stream)
            .complete({ messages: user("x") })
            .catch((e: unknown) => e);
          expect(err).toBeInstanceOf(ModelCallError);
          expect((err as ModelCallError).retryable).toBe(false);
          expect((err as Error).message).toMatch(/invalid_request_error/);
          llm.reset();
        });

      it("does not retry a 400 and reports the failure as a ModelCallError", async () => {
        llm.push(reply.error(400), reply.text("never"));
        const err = await client(p.name, stream)
          .complete({ messages: user("x") })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ModelCallError);
        expect((err as ModelCallError).attempts).toBe(1);
        expect((err as ModelCallError).retryable).toBe(false);
        expect(llm.pending()).toBe(1);
        // The queued answer is still there for the next caller.
        expect((await client(p.name, stream).complete({ messages: user("drain") })).text).toBe("never");
      });

      it("gives up after maxRetries and says so", async () => {
        llm.push(reply.error(500), reply.error(500), reply.error(500));
        const err = await client(p.name, stream, { maxRetries: 2 })
          .complete({ messages: user("x") })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ModelCallError);
        expect((err as ModelCallError).attempts).toBe(3);
        expect((err as Error).message).toMatch(/gave up after 3 attempts/);
      });

      it("prices an unknown model at 0 and flags it", async () => {
        llm.push(reply.text("x", { input: 10, output: 10 }));
        const settings = parseSettings({ baseUrl: llm.url, apiKey: "k", stream });
        const c = new ModelClient(`${p.name}:no-such-model`, { settings, pricing, env: {} });
        const r = await c.complete({ messages: user("x") });
        expect(r.record).toMatchObject({ costUsd: 0, priced: false });
        expect(c.totals().unpricedCalls).toBe(1);
      });
    });
  }
}

/** The start of a streamed answer whose connection then closes cleanly, before the finish. */
function unfinishedSse(provider: string): string {
  const sse = (d: unknown, event?: string) =>
    `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(d)}\n\n`;
  if (provider === "anthropic")
    return (
      sse(
        {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "m1",
            content: [],
            usage: { input_tokens: 7, output_tokens: 0 },
          },
        },
        "message_start",
      ) +
      sse(
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        "content_block_start",
      ) +
      sse(
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "half an ans" } },
        "content_block_delta",
      )
    );
  const head = { id: "c1", object: "chat.completion.chunk", created: 1, model: "m1" };
  return (
    sse({
      ...head,
      choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
    }) + sse({ ...head, choices: [{ index: 0, delta: { content: "half an ans" }, finish_reason: null }] })
  );
}
