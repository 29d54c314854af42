import { z } from "zod";
import { wholeResponseToSse } from "./whole-responses.js";

/** The model APIs by wire format: OpenAI Chat Completions, OpenAI Responses, Anthropic Messages. */
export type WireFormat = "chat" | "responses" | "messages";

/** One SSE event, with its `event:` line when the API names its events. */
export function sseEvent(data: unknown, event?: string): string {
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/**
 * The SSE stream that carries the same answer as `body`, a whole JSON answer in the API's wire
 * format (what a server that ignores `"stream": true` sends), or null when `body` is not one (an
 * error object sent with a 200, JSON of another API). The events are the ones the API itself
 * streams, so any client's event reader, the gateway's usage tap included, reads the same text,
 * tool calls, finish and usage from them as it would from the JSON.
 */
export function wholeAnswerToSse(wire: WireFormat, body: string): string | null {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return null;
  }
  if (wire === "chat") return chatToSse(v);
  if (wire === "messages") return messageToSse(v);
  return wholeResponseToSse(v);
}

const ChatToolCall = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const ChatCompletion = z.looseObject({
  id: z.string().optional(),
  object: z.literal("chat.completion").optional(),
  created: z.number().optional(),
  model: z.string().optional(),
  system_fingerprint: z.string().nullish(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().int().nonnegative().optional(),
        message: z.looseObject({
          content: z.string().nullish(),
          tool_calls: z.array(ChatToolCall).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.record(z.string(), z.unknown()).nullish(),
});

/** One chunk a choice (its whole message as the delta), one with its finish, usage, `[DONE]`. */
function chatToSse(v: unknown): string | null {
  const c = ChatCompletion.safeParse(v);
  if (!c.success) return null;
  const { id, created, model, system_fingerprint, usage } = c.data;
  const head = {
    id: id ?? "chatcmpl-whole",
    object: "chat.completion.chunk",
    created: created ?? Math.floor(Date.now() / 1000),
    model: model ?? "",
    ...(system_fingerprint ? { system_fingerprint } : {}),
  };
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    sseEvent({ ...head, choices, ...extra });
  let out = "";
  c.data.choices.forEach((choice, i) => {
    const index = choice.index ?? i;
    const { content, tool_calls, role: _role, ...rest } = choice.message;
    const delta = {
      ...rest,
      role: "assistant",
      ...(content == null ? {} : { content }),
      // A streamed tool call carries its position, by which a client joins its parts.
      ...(tool_calls?.length ? { tool_calls: tool_calls.map((t, n) => ({ index: n, ...t })) } : {}),
    };
    out += chunk([{ index, delta, finish_reason: null }]);
    out += chunk([{ index, delta: {}, finish_reason: choice.finish_reason ?? "stop" }]);
  });
  if (usage) out += chunk([], { usage });
  return `${out}data: [DONE]\n\n`;
}

const Block = z.looseObject({ type: z.string() });

const AnthropicMessage = z.looseObject({
  id: z.string(),
  type: z.literal("message"),
  role: z.literal("assistant"),
  model: z.string().optional(),
  content: z.array(Block),
  stop_reason: z.string().nullish(),
  stop_sequence: z.string().nullish(),
  usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number() }).optional(),
});

/** message_start, each content block as start, deltas and stop, message_delta, message_stop. */
function messageToSse(v: unknown): string | null {
  const m = AnthropicMessage.safeParse(v);
  if (!m.success) return null;
  const { content, stop_reason, stop_sequence, usage, ...rest } = m.data;
  const e = (data: { type: string } & Record<string, unknown>): string => sseEvent(data, data.type);
  // The whole usage goes in both: readers take input counts from the start and output from the delta.
  const startUsage = usage ?? { input_tokens: 0, output_tokens: 0 };
  let out = e({
    type: "message_start",
    message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage: startUsage },
  });
  content.forEach((block, index) => {
    for (const [delta, start] of blockEvents(block)) {
      if (start !== undefined) out += e({ type: "content_block_start", index, content_block: start });
      if (delta !== undefined) out += e({ type: "content_block_delta", index, delta });
    }
    out += e({ type: "content_block_stop", index });
  });
  out += e({
    type: "message_delta",
    delta: { stop_reason: stop_reason ?? "end_turn", stop_sequence: stop_sequence ?? null },
    usage: startUsage,
  });
  return out + e({ type: "message_stop" });
}

type BlockEvent = [delta: Record<string, unknown> | undefined, start?: Record<string, unknown>];

/** A block's start (with its contents emptied) and the deltas that fill it in, as the API streams it. */
function blockEvents(b: z.infer<typeof Block>): BlockEvent[] {
  if (b.type === "text" && typeof b.text === "string") {
    const { citations, ...start } = b;
    const cited = Array.isArray(citations) ? citations : [];
    return [
      [undefined, { ...start, text: "" }],
      [{ type: "text_delta", text: b.text }],
      ...cited.map((citation): BlockEvent => [{ type: "citations_delta", citation }]),
    ];
  }
  if (b.type === "thinking" && typeof b.thinking === "string") {
    const { signature, ...start } = b;
    return [
      [undefined, { ...start, thinking: "" }],
      [{ type: "thinking_delta", thinking: b.thinking }],
      ...(typeof signature === "string" ? [[{ type: "signature_delta", signature }] as BlockEvent] : []),
    ];
  }
  if ((b.type === "tool_use" || b.type.endsWith("_tool_use")) && "input" in b) {
    return [
      [undefined, { ...b, input: {} }],
      [{ type: "input_json_delta", partial_json: JSON.stringify(b.input ?? {}) }],
    ];
  }
  // Other blocks (redacted thinking, server tool results) arrive whole in their start event.
  return [[undefined, b]];
}
