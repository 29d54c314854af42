import { asObj, BrokenStream, eventJson, type Obj, parseSseText } from "./sse-events.js";
import { messageFromSse } from "./sse-to-whole-messages.js";
import type { WireFormat } from "./whole-answer.js";

/**
 * The whole JSON answer that an SSE stream in the `wire` format carries: what the API returns to
 * the same request without `stream` (a server that streams regardless). Text, tool calls, finish
 * and usage are assembled from the events as the API's own clients do. A stream that is not whole
 * (no terminal event, an event that is not JSON, an error event) raises BrokenStream: it must be
 * retried, never passed on as a shorter answer.
 */
export function sseToWholeAnswer(wire: WireFormat, text: string): string {
  const events = parseSseText(text);
  if (events.length === 0) throw new BrokenStream("no SSE event in the answer");
  const answer =
    wire === "chat"
      ? chatFromSse(events)
      : wire === "messages"
        ? messageFromSse(events)
        : responseFromSse(events);
  return JSON.stringify(answer);
}

interface ChatToolCall {
  id: string | undefined;
  type: string | undefined;
  name: string;
  args: string;
}

interface ChatChoice {
  content: string | null;
  refusal: string | null;
  /** Other text fields some servers stream in the delta (`reasoning_content`, `reasoning`). */
  extra: Record<string, string>;
  calls: Map<number, ChatToolCall>;
  finish: string | null;
  logprobs: unknown[] | null;
}

const HEAD_FIELDS = ["id", "created", "model", "system_fingerprint", "service_tier"] as const;

/** Chat Completions: chunks of deltas per choice, a usage chunk (when sent), then `data: [DONE]`. */
function chatFromSse(events: ReturnType<typeof parseSseText>): Obj {
  const head: Obj = {};
  const choices = new Map<number, ChatChoice>();
  let usage: Obj | undefined;
  let done = false;
  for (const m of events) {
    if (m.data.trim() === "[DONE]") {
      done = true;
      break;
    }
    const chunk = eventJson(m);
    if (chunk.error !== undefined && chunk.error !== null)
      throw new BrokenStream(`error event in the stream: ${JSON.stringify(chunk.error)}`);
    for (const f of HEAD_FIELDS) if (chunk[f] !== undefined && chunk[f] !== null) head[f] = chunk[f];
    usage = asObj(chunk.usage) ?? usage;
    const list = Array.isArray(chunk.choices) ? chunk.choices : [];
    list.forEach((raw: unknown, position) => {
      const c = asObj(raw) ?? {};
      const index = typeof c.index === "number" ? c.index : position;
      const choice = choices.get(index) ?? newChoice();
      choices.set(index, choice);
      addDelta(choice, asObj(c.delta) ?? {});
      if (typeof c.finish_reason === "string") choice.finish = c.finish_reason;
      const lp = asObj(c.logprobs)?.content;
      if (Array.isArray(lp)) choice.logprobs = [...(choice.logprobs ?? []), ...lp];
    });
  }
  if (!done) throw new BrokenStream("stream ended without data: [DONE]");
  if (choices.size === 0) throw new BrokenStream("stream carried no choice");
  for (const [index, c] of choices)
    if (c.finish === null) throw new BrokenStream(`choice ${index} ended without a finish_reason`);
  return {
    id: head.id ?? "chatcmpl-assembled",
    object: "chat.completion",
    created: head.created ?? Math.floor(Date.now() / 1000),
    model: head.model ?? "",
    ...(head.system_fingerprint === undefined ? {} : { system_fingerprint: head.system_fingerprint }),
    ...(head.service_tier === undefined ? {} : { service_tier: head.service_tier }),
    choices: [...choices.entries()].sort(([a], [b]) => a - b).map(([index, c]) => chatChoice(index, c)),
    ...(usage === undefined ? {} : { usage }),
  };
}

function newChoice(): ChatChoice {
  return { content: null, refusal: null, extra: {}, calls: new Map(), finish: null, logprobs: null };
}

function addDelta(c: ChatChoice, d: Obj): void {
  for (const [k, v] of Object.entries(d)) {
    if (typeof v !== "string" || k === "role") continue;
    if (k === "content") c.content = (c.content ?? "") + v;
    else if (k === "refusal") c.refusal = (c.refusal ?? "") + v;
    else c.extra[k] = (c.extra[k] ?? "") + v;
  }
  const calls = Array.isArray(d.tool_calls) ? d.tool_calls : [];
  calls.forEach((raw: unknown, position) => {
    const t = asObj(raw) ?? {};
    // A call's parts share its index; its id, type and name come once, its arguments in pieces.
    const index = typeof t.index === "number" ? t.index : position;
    const call = c.calls.get(index) ?? { id: undefined, type: undefined, name: "", args: "" };
    c.calls.set(index, call);
    if (typeof t.id === "string") call.id = t.id;
    if (typeof t.type === "string") call.type = t.type;
    const fn = asObj(t.function) ?? {};
    if (typeof fn.name === "string" && call.name === "") call.name = fn.name;
    if (typeof fn.arguments === "string") call.args += fn.arguments;
  });
}

function chatChoice(index: number, c: ChatChoice): Obj {
  const calls = [...c.calls.entries()].sort(([a], [b]) => a - b);
  const message = {
    role: "assistant",
    content: c.content,
    refusal: c.refusal,
    ...c.extra,
    ...(calls.length === 0
      ? {}
      : {
          tool_calls: calls.map(([n, t]) => ({
            id: t.id ?? `call_${n}`,
            type: t.type ?? "function",
            function: { name: t.name, arguments: t.args },
          })),
        }),
  };
  return {
    index,
    message,
    logprobs: c.logprobs === null ? null : { content: c.logprobs },
    finish_reason: c.finish,
  };
}

const RESPONSE_END = new Set(["response.completed", "response.incomplete"]);

/**
 * Responses: the stream ends with the whole response in `response.completed` (or `.incomplete`);
 * `response.failed` and `error` are failures. Its output is taken from the items' done events
 * when the terminal event carries none.
 */
function responseFromSse(events: ReturnType<typeof parseSseText>): Obj {
  const items = new Map<number, unknown>();
  for (const m of events) {
    const e = eventJson(m);
    const type = typeof e.type === "string" ? e.type : m.event;
    if (type === "error") throw new BrokenStream(`error event in the stream: ${JSON.stringify(e)}`);
    if (type === "response.failed") {
      const err = asObj(e.response)?.error;
      throw new BrokenStream(`the response failed: ${JSON.stringify(err ?? null)}`);
    }
    if (type === "response.output_item.done" && typeof e.output_index === "number")
      items.set(e.output_index, e.item);
    if (type !== undefined && RESPONSE_END.has(type)) {
      const response = asObj(e.response);
      if (response === undefined) throw new BrokenStream(`${type} carries no response`);
      const output = Array.isArray(response.output) ? response.output : [];
      if (output.length > 0 || items.size === 0) return response;
      return { ...response, output: [...items.entries()].sort(([a], [b]) => a - b).map(([, i]) => i) };
    }
  }
  throw new BrokenStream("stream ended without response.completed");
}
