import { tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { listModelProviders, ModelCallError, ModelClient, parseSettings } from "../../src/models/index.js";
import type { PricingTable } from "../../src/models/pricing.js";
import { reply, type ScriptedReply, startLoopbackLlm } from "../support/loopback-llm.js";
import { useLoopbackLlm } from "../support/use-loopback-llm.js";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** A server that answers a request without `stream` with the API's SSE events, as if streaming. */
const llm = useLoopbackLlm();

const pricing: PricingTable = {
  entries: Object.fromEntries(
    listModelProviders().map((p) => [`${p.name}:m1`, { input: 1, output: 2, cached_input: 0.5 }]),
  ),
  sources: {},
};

function client(provider: string, url = llm.url, maxRetries = 3): ModelClient {
  const settings = parseSettings({
    baseUrl: url,
    apiKey: "sk-test",
    retryBaseMs: 1,
    retryMaxMs: 5,
    maxRetries,
  });
  return new ModelClient(`${provider}:m1`, { settings, pricing, env: {} });
}

const user = (t: string) => [{ role: "user" as const, content: t }];
const tools = { exec: tool({ description: "run", inputSchema: z.object({ command: z.string() }) }) };

function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => {
    lines.push(String(s));
    return true;
  });
  return lines;
}

const shortStream = (): ScriptedReply => reply.streamed(reply.text("half an answer"), true);
const notJson = (): ScriptedReply =>
  reply.raw(
    'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"hal\n\ndata: [DONE]\n\n',
    "text/event-stream",
  );
const errorEvent = (): ScriptedReply => ({ kind: "stream-error", errorType: "overloaded_error" });

for (const p of listModelProviders()) {
  describe(`${p.name}: an SSE answer to a request without stream`, () => {
    it("is assembled into the answer, on the first attempt, with its usage counted", async () => {
      captureStderr();
      llm.push(
        reply.streamed(
          reply.text("streamed answer", { input: 1000, output: 300, cached: 400, reasoning: 120 }),
        ),
      );
      const r = await client(p.name).complete({ messages: user("hi") });
      expect(llm.requests.at(-1)?.stream).toBe(false);
      expect(r.text).toBe("streamed answer");
      expect(r.finishReason).toBe("stop");
      expect(r.record.attempts).toBe(1);
      expect(r.record.tokens).toMatchObject({
        inputTokens: 1000,
        outputTokens: 300,
        cachedTokens: 400,
        reasoningTokens: 120,
      });
      // 600 fresh × $1 + 400 cached × $0.5 + 300 out × $2, per million.
      expect(r.record.costUsd).toBeCloseTo((600 + 200 + 600) / 1e6, 12);
      expect(r.record.priced).toBe(true);
    });

    it("carries its tool calls and the assistant message to append", async () => {
      captureStderr();
      llm.push(
        reply.streamed({
          kind: "tools",
          text: "running it",
          calls: [
            { name: "exec", arguments: { command: "ls -la" }, id: "call_a" },
            { name: "exec", arguments: { command: "pwd" }, id: "call_b" },
          ],
          usage: { input: 20, output: 9 },
        }),
      );
      const r = await client(p.name).complete({ messages: user("list"), tools });
      expect(r.text).toBe("running it");
      expect(r.finishReason).toBe("tool-calls");
      expect(r.toolCalls.map((c) => [c.id, c.name, c.input, c.invalid])).toEqual([
        ["call_a", "exec", { command: "ls -la" }, false],
        ["call_b", "exec", { command: "pwd" }, false],
      ]);
      expect(r.responseMessages).toHaveLength(1);
      expect(r.record.tokens).toMatchObject({ inputTokens: 20, outputTokens: 9 });
    });

    it("retries a broken stream (cut short, not JSON, an error event), never a short answer", async () => {
      captureStderr();
      llm.push(shortStream(), notJson(), errorEvent(), reply.streamed(reply.text("whole at last")));
      const r = await client(p.name).complete({ messages: user("hi") });
      expect(r.text).toBe("whole at last");
      expect(r.record.attempts).toBe(4);
      llm.push(shortStream(), notJson());
      const failed = await client(p.name, llm.url, 1)
        .complete({ messages: user("hi") })
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(ModelCallError);
      expect((failed as ModelCallError).retryable).toBe(true);
      expect((failed as ModelCallError).message).toMatch(
        /broken SSE stream: event data is not JSON.*gave up after 2/,
      );
    });
  });
}

describe("a server that always streams", () => {
  it("is warned about once on stderr, however many answers it sends", async () => {
    const other = await startLoopbackLlm();
    try {
      const lines = captureStderr();
      for (const p of listModelProviders()) {
        other.push(reply.streamed(reply.text("one")), reply.streamed(reply.text("two")));
        expect((await client(p.name, other.url).complete({ messages: user("a") })).text).toBe("one");
        expect((await client(p.name, other.url).complete({ messages: user("b") })).text).toBe("two");
      }
      const warnings = lines.filter((l) => l.includes('without "stream": true with SSE'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(new URL(other.url).origin);
      expect(warnings[0]).toContain("stream=true");
    } finally {
      await other.close();
    }
  });
});
