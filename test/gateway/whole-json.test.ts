import { readFileSync } from "node:fs";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { type LanguageModel, streamText, tool } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Gateway } from "../../src/gateway/index.js";
import { useGatewayLab } from "../support/gateway-lab.js";
import { reply, startLoopbackLlm } from "../support/loopback-llm.js";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** An upstream that answers streamed requests with whole JSON: the agent gets the API's events. */
const lab = useGatewayLab("lh-gw-whole-");
const gateway = (url = lab.llm.url) => lab.gateway({}, { baseUrl: url, maxRetries: 2 });
afterEach(() => {
  vi.restoreAllMocks();
});

// Real clients of each API (their own SSE readers, no longhaul code), pointed at the gateway.
const clients = {
  chat: (g: Gateway) =>
    createOpenAI({ baseURL: `${g.endpoint.hostUrl}/v1`, apiKey: g.endpoint.token }).chat("m1"),
  responses: (g: Gateway) =>
    createOpenAI({ baseURL: `${g.endpoint.hostUrl}/v1`, apiKey: g.endpoint.token }).responses("m1"),
  messages: (g: Gateway) =>
    createAnthropic({ baseURL: `${g.endpoint.hostUrl}/v1`, apiKey: g.endpoint.token })("m1"),
} satisfies Record<string, (g: Gateway) => LanguageModel>;

const tools = { exec: tool({ description: "run", inputSchema: z.object({ command: z.string() }) }) };

function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => {
    lines.push(String(s));
    return true;
  });
  return lines;
}

describe("gateway: a streamed request answered with whole JSON", () => {
  for (const api of ["chat", "responses", "messages"] as const) {
    it(`gives a ${api} client the API's events, with the text, tool calls and usage counted`, async () => {
      captureStderr();
      const g = await gateway();
      const before = lab.llm.requests.length;
      lab.llm.push(
        reply.whole(reply.text("whole answer", { input: 1000, output: 300, cached: 400 })),
        reply.whole({
          kind: "tools",
          calls: [{ name: "exec", arguments: { command: "ls" }, id: "call_1" }],
          usage: { input: 10, output: 5 },
        }),
      );
      const first = streamText({ model: clients[api](g), prompt: "hi" });
      expect(await first.text).toBe("whole answer");
      expect(await first.finishReason).toBe("stop");
      expect((await first.totalUsage).inputTokens).toBe(1000);
      expect((await first.totalUsage).outputTokens).toBe(300);
      const second = streamText({ model: clients[api](g), prompt: "list", tools });
      const calls = await second.toolCalls;
      expect(calls.map((c) => [c.toolCallId, c.toolName, c.input])).toEqual([
        ["call_1", "exec", { command: "ls" }],
      ]);
      expect(await second.finishReason).toBe("tool-calls");
      // Used at once: no retry upstream, and both answers counted against the budget.
      expect(lab.llm.requests.length).toBe(before + 2);
      expect(lab.llm.requests.slice(before).every((r) => r.stream)).toBe(true);
      expect(g.usage()).toMatchObject({
        calls: 2,
        retries: 0,
        tokens: { inputTokens: 1010, outputTokens: 305, cachedTokens: 400 },
      });
      // (600 fresh × $1 + 400 cached × $0.5 + 300 out × $2) + (10 × $1 + 5 × $2), per million.
      expect(g.usage().costUsd).toBeCloseTo((600 + 200 + 600 + 10 + 10) / 1e6, 12);
      expect(g.fault()).toBeNull();
      await g.close();
      const lines = readFileSync(g.recordPath ?? "", "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { status: number; usage: { input_tokens: number }; refused: null });
      expect(lines.map((l) => [l.status, l.usage.input_tokens, l.refused])).toEqual([
        [200, 1000, null],
        [200, 10, null],
      ]);
    });
  }

  it("sends text/event-stream, and warns once on stderr that the upstream ignored stream", async () => {
    const other = await startLoopbackLlm();
    try {
      const lines = captureStderr();
      const g = await gateway(other.url);
      for (const path of ["/chat/completions", "/messages", "/chat/completions"]) {
        other.push(reply.whole(reply.text("ok", { input: 2, output: 1 })));
        const res = await fetch(`${g.endpoint.hostUrl}/v1${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${g.endpoint.token}`, "anthropic-version": "2023-06-01" },
          body: JSON.stringify({
            model: "m1",
            max_tokens: 9,
            stream: true,
            messages: [{ role: "user", content: "x" }],
          }),
        });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("text/event-stream");
        const text = await res.text();
        expect(text).toMatch(path === "/messages" ? /event: message_stop/ : /data: \[DONE\]/);
      }
      const warnings = lines.filter((l) => l.includes('ignored "stream": true'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(new URL(other.url).origin);
      expect(g.usage()).toMatchObject({ calls: 3, tokens: { inputTokens: 6, outputTokens: 3 } });
    } finally {
      await other.close();
    }
  });
});
