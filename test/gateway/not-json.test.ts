import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Gateway, GatewayOptions } from "../../src/gateway/index.js";
import { useGatewayLab } from "../support/gateway-lab.js";
import { reply } from "../support/loopback-llm.js";

/** A successful answer that is not JSON, on a JSON request: retried upstream, never relayed. */
const lab = useGatewayLab("lh-gw-notjson-");
const gateway = (extra: Partial<GatewayOptions> = {}, maxRetries = 3) => lab.gateway(extra, { maxRetries });

const page = () => reply.raw("<html><body>502 from a proxy, sent as 200</body></html>");

function post(g: Gateway, path: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${g.endpoint.hostUrl}/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${g.endpoint.token}`, "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
  });
}

const ask = { model: "m1", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };

describe("gateway: a JSON request answered with a success that is not JSON", () => {
  it("retries a page (whatever its label) or an empty body and relays the JSON answer that follows", async () => {
    const g = await gateway();
    const before = lab.llm.requests.length;
    const labelledJson = reply.raw("<html>proxy page sent as JSON</html>", "application/json");
    lab.llm.push(
      page(),
      labelledJson,
      reply.raw("", "application/json"),
      reply.text("json at last", { input: 10, output: 4 }),
    );
    const res = await post(g, "/chat/completions", ask);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe("json at last");
    expect(lab.llm.requests.length).toBe(before + 4);
    expect(g.usage()).toMatchObject({ calls: 1, retries: 3, tokens: { inputTokens: 10, outputTokens: 4 } });
    expect(g.fault()).toBeNull();
  });

  for (const [path, shape] of [
    ["/chat/completions", { error: { type: "server_error" } }],
    ["/messages", { type: "error", error: { type: "api_error" } }],
  ] as const) {
    it(`answers ${path} with 502 in the API's format once retries run out, an infrastructure fault`, async () => {
      const faults: string[] = [];
      const g = await gateway({ onFault: (f) => faults.push(f.kind) }, 1);
      lab.llm.push(page(), page());
      const res = await post(g, path, ask);
      expect(res.status).toBe(502);
      const body = (await res.json()) as { error: { message: string } };
      expect(body).toMatchObject(shape);
      expect(body.error.message).toMatch(
        /without JSON \(content-type text\/html\).*gave up after 2 attempts/,
      );
      expect(faults).toEqual(["infra"]);
      expect(g.usage().calls).toBe(0);
      await g.close();
      const line = JSON.parse(readFileSync(g.recordPath ?? "", "utf8").trim()) as Record<string, unknown>;
      expect(line).toMatchObject({ refused: "upstream", status: 502, stream: false });
    });
  }
});
