import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Gateway, GatewayOptions } from "../../src/gateway/index.js";
import {
  type EndlessApi,
  endlessEvents,
  endlessJson,
  endlessLine,
  meterFetch,
} from "../support/endless-answers.js";
import { useGatewayLab } from "../support/gateway-lab.js";
import type { EndlessReply } from "../support/loopback-llm.js";

/** An upstream whose answer never ends: the gateway reads up to the cap, then gives up on it. */
const lab = useGatewayLab("lh-gw-cap-");
afterEach(() => {
  vi.restoreAllMocks();
});

const MIB = 1024 * 1024;
// Code without a cap reads all of this (then fails for another reason); with the cap, ~1 MiB.
const STOP_AFTER = 48 * MIB;
// What the host may read past the cap: the chunk that crossed it, and one read ahead.
const READ_SLACK = MIB / 2;
const PATHS = { chat: "/chat/completions", responses: "/responses", messages: "/messages" } as const;
// The agent's side, kept out of the meter of what the gateway reads from its upstream.
const agentFetch = globalThis.fetch;

async function gateway(faults: string[], extra: Partial<GatewayOptions> = {}): Promise<Gateway> {
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  return lab.gateway(
    { onFault: (f) => faults.push(`${f.kind}: ${f.message}`), ...extra },
    { maxAnswerMib: 1, maxRetries: 0 },
  );
}

function post(g: Gateway, api: EndlessApi, stream: boolean): Promise<Response> {
  return agentFetch(`${g.endpoint.hostUrl}/v1${PATHS[api]}`, {
    method: "POST",
    headers: { authorization: `Bearer ${g.endpoint.token}`, "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "m1", max_tokens: 9, input: "x", messages: [], stream }),
  });
}

/** The upstream was hung up on near the cap, and the connection released. */
async function expectCutAtCap(r: EndlessReply, read: { bytes: number }): Promise<void> {
  expect(r.meter.reachedStop).toBe(false);
  await r.meter.closed;
  expect(read.bytes).toBeGreaterThan(MIB);
  expect(read.bytes).toBeLessThan(MIB + READ_SLACK);
}

const capMessage = (): RegExp =>
  new RegExp(`answer from ${new URL(lab.llm.url).origin.replace(/\./g, "\\.")} passed the 1 MiB cap`);

describe("gateway: an upstream answer without end", () => {
  for (const api of ["chat", "responses", "messages"] as const) {
    it(`answers a ${api} request without stream, given endless SSE events, with 502 naming the cap`, async () => {
      const faults: string[] = [];
      const g = await gateway(faults);
      const r = endlessEvents(api, STOP_AFTER);
      lab.llm.push(r);
      const read = meterFetch();
      const res = await post(g, api, false);
      expect(res.status).toBe(502);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(capMessage());
      await expectCutAtCap(r, read);
      expect(faults).toEqual([expect.stringMatching(/^infra: .*1 MiB cap/)]);
    });
  }

  for (const [what, make] of [
    ["one endless event line", () => endlessLine(STOP_AFTER)],
    ["an error status whose body never ends", () => endlessJson(STOP_AFTER, 500)],
  ] as const) {
    it(`answers a request without stream, given ${what}, with 502 naming the cap`, async () => {
      const faults: string[] = [];
      const g = await gateway(faults);
      const r = make();
      lab.llm.push(r);
      const read = meterFetch();
      const res = await post(g, "chat", false);
      expect(res.status).toBe(502);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(capMessage());
      await expectCutAtCap(r, read);
      expect(faults).toEqual([expect.stringMatching(/^infra: .*1 MiB cap/)]);
    });
  }

  for (const [what, stream, make] of [
    ["a JSON answer", false, () => endlessJson(STOP_AFTER)],
    ["a streamed answer", true, () => endlessEvents("chat", STOP_AFTER)],
    ["a streamed answer of one endless line", true, () => endlessLine(STOP_AFTER)],
  ] as const) {
    it(`cuts ${what} relayed as it arrives at the cap, an infrastructure fault`, async () => {
      const faults: string[] = [];
      const g = await gateway(faults);
      const r = make();
      lab.llm.push(r);
      const read = meterFetch();
      const res = await post(g, "chat", stream);
      expect(res.status).toBe(200);
      // Begun with 200, so the agent's read fails instead: never a short answer that looks whole.
      await expect(res.text()).rejects.toThrow(/terminated/);
      await expectCutAtCap(r, read);
      expect(faults).toEqual([expect.stringMatching(/^infra: .*1 MiB cap/)]);
      await g.close();
      const line = JSON.parse(readFileSync(g.recordPath ?? "", "utf8").trim()) as { refused: string };
      expect(line.refused).toMatch(/^stream cut: answer from .* passed the 1 MiB cap/);
    });
  }
});
