import { afterEach, describe, expect, it, vi } from "vitest";
import { ModelCallError, ModelClient, parseSettings } from "../../src/models/index.js";
import { endlessEvents, endlessJson, endlessLine, meterFetch } from "../support/endless-answers.js";
import type { EndlessReply } from "../support/loopback-llm.js";
import { useLoopbackLlm } from "../support/use-loopback-llm.js";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** A server whose answer never ends: the client reads up to the cap, then gives up on it. */
const llm = useLoopbackLlm();
afterEach(() => {
  vi.restoreAllMocks();
});

const MIB = 1024 * 1024;
// Code without a cap reads all of this (then fails for another reason); with the cap, ~1 MiB.
const STOP_AFTER = 48 * MIB;
// What the host may read past the cap: the chunk that crossed it, and one read ahead.
const READ_SLACK = MIB / 2;

function client(provider: string, stream: boolean): ModelClient {
  const settings = parseSettings({
    baseUrl: llm.url,
    apiKey: "sk-test",
    maxRetries: 0,
    maxAnswerMib: 1,
    stream,
  });
  return new ModelClient(`${provider}:m1`, { settings, env: {} });
}

async function expectCut(provider: string, stream: boolean, r: EndlessReply): Promise<void> {
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  llm.push(r);
  const read = meterFetch();
  const failed = await client(provider, stream)
    .complete({ messages: [{ role: "user", content: "hi" }] })
    .catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(ModelCallError);
  const e = failed as ModelCallError;
  expect(e.retryable).toBe(true);
  expect(e.message).toContain(new URL(llm.url).origin);
  expect(e.message).toContain("1 MiB cap");
  // The client hung up: the server was never left to run into its own stop, and the connection closed.
  expect(r.meter.reachedStop).toBe(false);
  await r.meter.closed;
  expect(read.bytes).toBeGreaterThan(MIB);
  expect(read.bytes).toBeLessThan(MIB + READ_SLACK);
}

describe("model client: an answer without end", () => {
  for (const [provider, api] of [
    ["openai-compatible", "chat"],
    ["anthropic", "messages"],
  ] as const) {
    it(`${provider}: SSE events to a request without stream are cut at the cap`, async () => {
      await expectCut(provider, false, endlessEvents(api, STOP_AFTER));
    });
    it(`${provider}: SSE events to a streamed request are cut at the cap`, async () => {
      await expectCut(provider, true, endlessEvents(api, STOP_AFTER));
    });
  }

  it("one endless event line is cut at the cap", async () => {
    await expectCut("openai-compatible", false, endlessLine(STOP_AFTER));
  });

  it("one endless line in a streamed answer is cut at the cap", async () => {
    await expectCut("openai-compatible", true, endlessLine(STOP_AFTER));
  });

  it("a JSON answer without end is cut at the cap", async () => {
    await expectCut("openai-compatible", false, endlessJson(STOP_AFTER));
  });

  it("an error answer without end is cut at the cap", async () => {
    await expectCut("openai-compatible", false, endlessJson(STOP_AFTER, 500));
  });
});

describe("max_answer_mib", () => {
  it("defaults to 64 MiB and is read from --agent-opt", async () => {
    const { settingsFromOptions } = await import("../../src/models/index.js");
    expect(parseSettings({}).maxAnswerMib).toBe(64);
    expect(settingsFromOptions({ max_answer_mib: "8" }).maxAnswerMib).toBe(8);
    expect(() => settingsFromOptions({ max_answer_mib: "0" })).toThrow(/maxAnswerMib/);
  });
});
