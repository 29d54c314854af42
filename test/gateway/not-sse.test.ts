import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Gateway, GatewayOptions } from "../../src/gateway/index.js";
import { ModelClient, parseSettings } from "../../src/models/index.js";
import { LAB_PRICING, useGatewayLab } from "../support/gateway-lab.js";
import { reply } from "../support/loopback-llm.js";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** A successful answer that is not SSE, on a streamed request: retried upstream, never relayed. */
const lab = useGatewayLab("lh-gw-notsse-");
const gateway = (extra: Partial<GatewayOptions> = {}, maxRetries = 3) => lab.gateway(extra, { maxRetries });

const page = () => reply.raw("<html><body>502 from a proxy, sent as 200</body></html>", "application/json");
const wholeJson = () =>
  reply.raw(
    JSON.stringify({
      id: "c1",
      object: "chat.completion",
      created: 1,
      model: "m1",
      choices: [{ index: 0, message: { role: "assistant", content: "whole" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 },
    }),
    "application/json",
  );

function post(g: Gateway, path: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${g.endpoint.hostUrl}/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${g.endpoint.token}`, "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
  });
}

describe("gateway: a streamed request answered without SSE", () => {
  it("retries a page or JSON that is no answer and relays the SSE answer that follows", async () => {
    const g = await gateway();
    const before = lab.llm.requests.length;
    const errorObject = reply.raw(JSON.stringify({ error: { message: "busy" } }), "application/json");
    lab.llm.push(page(), errorObject, reply.text("streamed at last", { input: 10, output: 4 }));
    const client = new ModelClient("openai-compatible:m1", {
      settings: parseSettings({
        baseUrl: `${g.endpoint.hostUrl}/v1`,
        apiKey: g.endpoint.token,
        stream: true,
        maxRetries: 0,
      }),
      pricing: LAB_PRICING,
      env: {},
    });
    const r = await client.complete({ messages: [{ role: "user", content: "hi" }] });
    expect(r.text).toBe("streamed at last");
    expect(lab.llm.requests.length).toBe(before + 3);
    expect(g.usage()).toMatchObject({ calls: 1, retries: 2, tokens: { inputTokens: 10, outputTokens: 4 } });
    expect(g.fault()).toBeNull();
  });

  it("answers 502 in the API's format once retries run out, an infrastructure fault", async () => {
    const faults: string[] = [];
    const g = await gateway({ onFault: (f) => faults.push(f.kind) }, 1);
    lab.llm.push(page(), page());
    const res = await post(g, "/messages", {
      model: "m1",
      max_tokens: 10,
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { type: string; error: { message: string } };
    expect(body.type).toBe("error");
    expect(body.error.message).toMatch(
      /without SSE \(content-type application\/json\).*gave up after 2 attempts/,
    );
    expect(faults).toEqual(["infra"]);
    expect(g.usage().calls).toBe(0);
    await g.close();
    const line = JSON.parse(readFileSync(g.recordPath ?? "", "utf8").trim()) as {
      refused: string;
      status: number;
    };
    expect(line).toMatchObject({ refused: "upstream", status: 502 });
  });

  it("leaves a JSON request's JSON answer alone, and passes events sent under another type", async () => {
    const g = await gateway();
    lab.llm.push(wholeJson());
    const json = await post(g, "/chat/completions", {
      model: "m1",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(json.status).toBe(200);
    expect(
      ((await json.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content,
    ).toBe("whole");
    const events =
      'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m1","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2}}\n\ndata: [DONE]\n\n';
    lab.llm.push(reply.raw(events, "text/plain"));
    const sse = await post(g, "/chat/completions", {
      model: "m1",
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(sse.status).toBe(200);
    expect(await sse.text()).toContain("data: [DONE]");
    expect(g.usage()).toMatchObject({ calls: 2, tokens: { inputTokens: 12, outputTokens: 3 } });
  });
});
