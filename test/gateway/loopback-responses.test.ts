import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";

// The loopback server's Responses API, read by a real Responses client (the AI SDK's).
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let llm: LoopbackLlm;
beforeAll(async () => {
  llm = await startLoopbackLlm();
});
afterAll(async () => {
  await llm.close();
});

const model = () => createOpenAI({ baseURL: llm.url, apiKey: "sk-test" }).responses("m1");
const tools = {
  exec: tool({
    description: "run a command",
    inputSchema: jsonSchema<{ command: string }>({
      type: "object",
      properties: { command: { type: "string" } },
      required: ["command"],
    }),
  }),
};

describe("loopback server: OpenAI Responses API", () => {
  it("answers text as JSON with usage a client reads", async () => {
    llm.push(reply.text("hello there", { input: 900, output: 70, cached: 300, reasoning: 20 }));
    const r = await generateText({ model: model(), prompt: "hi" });
    expect(r.text).toBe("hello there");
    expect(r.usage.inputTokens).toBe(900);
    expect(r.usage.outputTokens).toBe(70);
    expect(r.usage.inputTokenDetails?.cacheReadTokens ?? r.usage.cachedInputTokens).toBe(300);
    const req = llm.requests.at(-1);
    expect(req).toMatchObject({ format: "responses", path: "/v1/responses", stream: false });
    expect(req?.body.model).toBe("m1");
  });

  it("streams text deltas and a completed event with usage", async () => {
    llm.push(reply.text("streamed words", { input: 50, output: 8 }));
    const r = streamText({ model: model(), prompt: "hi" });
    const deltas: string[] = [];
    for await (const d of r.textStream) deltas.push(d);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(deltas.join("")).toBe("streamed words");
    expect((await r.totalUsage).inputTokens).toBe(50);
    expect((await r.totalUsage).outputTokens).toBe(8);
    expect(llm.requests.at(-1)?.stream).toBe(true);
  });

  it("returns function calls, as JSON and streamed", async () => {
    for (const stream of [false, true]) {
      llm.push(reply.tools([{ name: "exec", arguments: { command: "ls -la" }, id: "call_7" }]));
      const opts = { model: model(), prompt: "list files", tools };
      const calls = stream ? await streamText(opts).toolCalls : (await generateText(opts)).toolCalls;
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        toolName: "exec",
        toolCallId: "call_7",
        input: { command: "ls -la" },
      });
    }
  });

  it("answers errors in the OpenAI error format", async () => {
    llm.push(reply.error(400));
    const res = await fetch(`${llm.url}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m1", input: "hi" }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error?: { message?: string } };
    expect(body.error?.message).toMatch(/400/);
  });
});
