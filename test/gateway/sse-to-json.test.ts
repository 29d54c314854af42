import { readFileSync } from "node:fs";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type LanguageModel, tool } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Gateway, GatewayOptions } from "../../src/gateway/index.js";
import { useGatewayLab } from "../support/gateway-lab.js";
import { reply, type ScriptedReply, startLoopbackLlm } from "../support/loopback-llm.js";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** An upstream that answers requests without `stream` with SSE: the agent gets the API's JSON. */
const lab = useGatewayLab("lh-gw-ssejson-");
const gateway = (extra: Partial<GatewayOptions> = {}, maxRetries = 2, url = lab.llm.url) =>
  lab.gateway(extra, { baseUrl: url, maxRetries });
afterEach(() => {
  vi.restoreAllMocks();
});

// Real clients of each API (their own JSON readers, no longhaul code), pointed at the gateway;
// generateText sends no `stream`.
const clients = {
  chat: (g: Gateway) =>
    createOpenAI({ baseURL: `${g.endpoint.hostUrl}/v1`, apiKey: g.endpoint.token }).chat("m1"),
  responses: (g: Gateway) =>
    createOpenAI({ baseURL: `${g.endpoint.hostUrl}/v1`, apiKey: g.endpoint.token }).responses("m1"),
  messages: (g: Gateway) =>
    createAnthropic({ baseURL: `${g.endpoint.hostUrl}/v1`, apiKey: g.endpoint.token })("m1"),
} satisfies Record<string, (g: Gateway) => LanguageModel>;

const PATHS = { chat: "/chat/completions", responses: "/responses", messages: "/messages" } as const;

const tools = { exec: tool({ description: "run", inputSchema: z.object({ command: z.string() }) }) };

function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => {
    lines.push(String(s));
    return true;
  });
  return lines;
}

function post(g: Gateway, path: string): Promise<Response> {
  return fetch(`${g.endpoint.hostUrl}/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${g.endpoint.token}`, "anthropic-version": "2023-06-01" },
    body: JSON.stringify({
      model: "m1",
      max_tokens: 9,
      input: "x",
      messages: [{ role: "user", content: "x" }],
    }),
  });
}

// Streams that do not hold a whole answer, for each API: one that ends cleanly before its last
// event, one whose event is not JSON, one that carries the API's error event.
const shortStream = (): ScriptedReply => reply.streamed(reply.text("half an answer"), true);
const notJson = (): ScriptedReply =>
  reply.raw(
    'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"hal\n\ndata: [DONE]\n\n',
    "text/event-stream",
  );
const errorEvent = (): ScriptedReply => ({ kind: "stream-error", errorType: "overloaded_error" });

describe("gateway: a request without stream answered with SSE", () => {
  for (const api of ["chat", "responses", "messages"] as const) {
    it(`gives a ${api} client the API's JSON answer, with text, tool calls and usage counted`, async () => {
      captureStderr();
      const g = await gateway();
      const before = lab.llm.requests.length;
      lab.llm.push(
        reply.streamed(reply.text("streamed answer", { input: 1000, output: 300, cached: 400 })),
        reply.streamed({
          kind: "tools",
          calls: [{ name: "exec", arguments: { command: "ls" }, id: "call_1" }],
          usage: { input: 10, output: 5 },
        }),
      );
      const first = await generateText({ model: clients[api](g), prompt: "hi" });
      expect(first.text).toBe("streamed answer");
      expect(first.finishReason).toBe("stop");
      expect(first.usage.inputTokens).toBe(1000);
      expect(first.usage.outputTokens).toBe(300);
      const second = await generateText({ model: clients[api](g), prompt: "list", tools });
      expect(second.toolCalls.map((c) => [c.toolCallId, c.toolName, c.input])).toEqual([
        ["call_1", "exec", { command: "ls" }],
      ]);
      expect(second.finishReason).toBe("tool-calls");
      // Used at once: no retry upstream, and both answers counted against the budget.
      expect(lab.llm.requests.length).toBe(before + 2);
      expect(lab.llm.requests.slice(before).some((r) => r.stream)).toBe(false);
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
        .map((l) => JSON.parse(l) as { status: number; stream: boolean; usage: { input_tokens: number } });
      expect(lines.map((l) => [l.status, l.stream, l.usage.input_tokens])).toEqual([
        [200, false, 1000],
        [200, false, 10],
      ]);
    });
  }

  it("sends application/json, and warns once on stderr that the upstream streamed", async () => {
    const other = await startLoopbackLlm();
    try {
      const lines = captureStderr();
      const g = await gateway({}, 2, other.url);
      for (const path of Object.values(PATHS)) {
        other.push(reply.streamed(reply.text("ok", { input: 2, output: 1 })));
        const res = await post(g, path);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/json");
        const body = (await res.json()) as Record<string, unknown>;
        expect(body.object ?? body.type).toBe(
          { chat: "chat.completion", responses: "response", messages: "message" }[
            path === "/messages" ? "messages" : path === "/responses" ? "responses" : "chat"
          ],
        );
      }
      const warnings = lines.filter((l) => l.includes('without "stream": true with SSE'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(new URL(other.url).origin);
      expect(g.usage()).toMatchObject({ calls: 3, tokens: { inputTokens: 6, outputTokens: 3 } });
    } finally {
      await other.close();
    }
  });

  for (const api of ["chat", "responses", "messages"] as const) {
    it(`retries a broken ${api} stream (cut short, not JSON, an error event) and uses the whole one after`, async () => {
      captureStderr();
      const log: string[] = [];
      const g = await gateway({ log: (l) => log.push(l) }, 3);
      const before = lab.llm.requests.length;
      lab.llm.push(
        shortStream(),
        notJson(),
        errorEvent(),
        reply.streamed(reply.text("whole at last", { input: 7, output: 2 })),
      );
      const r = await generateText({ model: clients[api](g), prompt: "hi" });
      expect(r.text).toBe("whole at last");
      expect(lab.llm.requests.length).toBe(before + 4);
      expect(g.usage()).toMatchObject({ calls: 1, retries: 3, tokens: { inputTokens: 7, outputTokens: 2 } });
      expect(g.fault()).toBeNull();
      const end = { chat: "data: \\[DONE\\]", responses: "response.completed", messages: "message_stop" }[
        api
      ];
      expect(log).toEqual([
        expect.stringMatching(new RegExp(`broken SSE stream: stream ended without ${end}; retry 1`)),
        expect.stringMatching(/broken SSE stream: event data is not JSON: .*; retry 2/),
        expect.stringMatching(/broken SSE stream: error event in the stream: .*overloaded_error.*; retry 3/),
      ]);
    });

    it(`answers ${api} with 502 once broken streams use up the retries, an infrastructure fault`, async () => {
      captureStderr();
      const faults: string[] = [];
      const g = await gateway({ onFault: (f) => faults.push(f.kind) }, 2);
      lab.llm.push(shortStream(), notJson(), errorEvent());
      const res = await post(g, PATHS[api]);
      expect(res.status).toBe(502);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/broken SSE stream: .*gave up after 3 attempts/);
      expect(faults).toEqual(["infra"]);
      expect(g.usage().calls).toBe(0);
    });
  }
});
