import fc from "fast-check";
import { ModelCallError, ModelClient } from "../../src/models/client.js";
import { parseSettings } from "../../src/models/settings.js";
import { describeError } from "./targets.js";

/**
 * Model responses as a fuzz target: OpenAI and Anthropic bodies, JSON and SSE, edited and cut at
 * any byte, answered in-process through a stubbed global fetch (no socket, bounded time).
 */

const SSE_OPENAI = [
  'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}\n\n',
  'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t1","type":"function","function":{"name":"bash","arguments":"{\\"cmd\\": \\"ls"}}]},"finish_reason":null}]}\n\n',
  'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}\n\n',
  "data: [DONE]\n\n",
].join("");
const JSON_OPENAI = JSON.stringify({
  id: "c1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: "hi",
        tool_calls: [{ id: "t1", type: "function", function: { name: "bash", arguments: '{"cmd":"ls"}' } }],
      },
      finish_reason: "tool_calls",
    },
  ],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
});
const SSE_ANTHROPIC = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"m1","type":"message","role":"assistant","model":"c","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
].join("");
const JSON_ANTHROPIC = JSON.stringify({
  id: "m1",
  type: "message",
  role: "assistant",
  model: "c",
  content: [
    { type: "text", text: "hi" },
    { type: "tool_use", id: "t1", name: "bash", input: { cmd: "ls" } },
  ],
  stop_reason: "tool_use",
  usage: { input_tokens: 3, output_tokens: 2 },
});

/** One wire case: which API, streaming or not, the HTTP status and the (possibly cut) body. */
export interface WireCase {
  api: "openai" | "anthropic";
  stream: boolean;
  status: number;
  body: string;
  /** Bytes per chunk when the body is streamed, so events are cut at arbitrary points. */
  chunk: number;
}

export function wireCases(): fc.Arbitrary<WireCase> {
  return fc
    .record({
      api: fc.constantFrom("openai" as const, "anthropic" as const),
      stream: fc.boolean(),
      status: fc.oneof(
        { weight: 8, arbitrary: fc.constant(200) },
        { weight: 2, arbitrary: fc.constantFrom(200, 400, 401, 404, 413, 422, 418) },
      ),
      chunk: fc.integer({ min: 1, max: 64 }),
      cut: fc.option(fc.nat(), { nil: undefined }),
      edits: fc.array(
        fc.record({
          at: fc.nat(),
          text: fc.constantFrom("", "}", "{", '"', "data: ", "\n\n", "null", "[DONE]", "\u0000", "\\u"),
        }),
        { maxLength: 3 },
      ),
    })
    .map((r) => {
      const base =
        r.api === "openai"
          ? r.stream
            ? SSE_OPENAI
            : JSON_OPENAI
          : r.stream
            ? SSE_ANTHROPIC
            : JSON_ANTHROPIC;
      let body = base;
      for (const e of r.edits) {
        const at = e.at % (body.length + 1);
        body = body.slice(0, at) + e.text + body.slice(at + (e.text === "" ? 3 : 0));
      }
      if (r.cut !== undefined) body = body.slice(0, r.cut % (body.length + 1));
      return { api: r.api, stream: r.stream, status: r.status, body, chunk: r.chunk };
    });
}

let wired: WireCase | null = null;

/** Answers every request from the current case: in-process, no socket. */
async function fakeFetch(): Promise<Response> {
  const c = wired;
  if (c === null) throw new Error("no wire case set");
  const bytes = new TextEncoder().encode(c.body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += c.chunk) controller.enqueue(bytes.slice(i, i + c.chunk));
      controller.close();
    },
  });
  const type = c.stream && c.status === 200 ? "text/event-stream" : "application/json";
  return new Response(stream, { status: c.status, headers: { "content-type": type } });
}

const HANG_MS = 5000;
// The SDK's console warnings say nothing about the property and would drown the bench output.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/**
 * Runs one wire case through ModelClient (the code path every LLM agent uses) with a stubbed
 * global fetch. A response either comes back or the call fails with ModelCallError; a call that
 * neither returns nor fails within HANG_MS is a hang.
 */
export async function checkWire(c: WireCase): Promise<string | undefined> {
  const original = globalThis.fetch;
  wired = c;
  globalThis.fetch = fakeFetch as typeof fetch;
  try {
    const settings = parseSettings({
      stream: c.stream,
      maxRetries: 0,
      timeoutSec: 5,
      apiKey: "test-key",
      baseUrl: "http://127.0.0.1:9/v1",
    });
    const id = c.api === "openai" ? "openai:gpt-test" : "anthropic:claude-test";
    const client = new ModelClient(id, { settings, env: {} });
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<"hang">((r) => {
      timer = setTimeout(() => r("hang"), HANG_MS);
    });
    try {
      const out = await Promise.race([
        client.complete({ messages: [{ role: "user", content: "hi" }] }),
        hang,
      ]);
      if (out === "hang") return `no answer within ${HANG_MS} ms`;
      if (typeof out.text !== "string") return "response text is not a string";
      return undefined;
    } catch (e) {
      if (!(e instanceof ModelCallError)) return `threw ${describeError(e)}`;
      if (!e.message.includes(id)) return `message does not name the model: ${e.message}`;
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  } finally {
    globalThis.fetch = original;
    wired = null;
  }
}

export const MODEL_SEEDS: readonly WireCase[] = [
  { api: "openai", stream: true, status: 200, body: SSE_OPENAI, chunk: 7 },
  { api: "openai", stream: false, status: 200, body: JSON_OPENAI, chunk: 64 },
  { api: "anthropic", stream: true, status: 200, body: SSE_ANTHROPIC, chunk: 5 },
  { api: "anthropic", stream: false, status: 200, body: JSON_ANTHROPIC, chunk: 64 },
];
