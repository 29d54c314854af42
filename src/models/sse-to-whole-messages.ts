import { asObj, BrokenStream, eventJson, type Obj, type SseMessage } from "./sse-events.js";

interface OpenBlock {
  block: Obj;
  /** A tool block's input, sent as pieces of JSON text; null for other blocks. */
  json: string | null;
}

/**
 * Anthropic Messages: the message in `message_start`, each content block started, filled by its
 * deltas and stopped, stop reason and final usage in `message_delta`, then `message_stop`. An
 * `error` event, or a stream without `message_stop`, is broken.
 */
export function messageFromSse(events: SseMessage[]): Obj {
  let message: Obj | undefined;
  const blocks = new Map<number, OpenBlock>();
  let done = false;
  for (const m of events) {
    const e = eventJson(m);
    const type = typeof e.type === "string" ? e.type : m.event;
    if (type === "error")
      throw new BrokenStream(`error event in the stream: ${JSON.stringify(e.error ?? e)}`);
    if (type === "message_stop") {
      done = true;
      break;
    }
    if (type === "message_start") {
      message = { ...(asObj(e.message) ?? {}) };
      continue;
    }
    if (type === "ping") continue;
    if (message === undefined) throw new BrokenStream(`${type ?? "an event"} came before message_start`);
    if (type === "message_delta") {
      Object.assign(message, asObj(e.delta) ?? {});
      // The delta's counts are cumulative: they replace those of message_start.
      const usage = asObj(e.usage);
      if (usage !== undefined) message.usage = { ...(asObj(message.usage) ?? {}), ...usage };
      continue;
    }
    const index = typeof e.index === "number" ? e.index : -1;
    if (type === "content_block_start") {
      const block = { ...(asObj(e.content_block) ?? {}) };
      const tool = "input" in block && typeof block.type === "string" && block.type.endsWith("tool_use");
      blocks.set(index, { block, json: tool ? "" : null });
      continue;
    }
    const open = blocks.get(index);
    if (type === "content_block_delta") {
      if (open === undefined) throw new BrokenStream(`delta for content block ${index}, which never started`);
      addDelta(open, asObj(e.delta) ?? {});
    }
  }
  if (!done) throw new BrokenStream("stream ended without message_stop");
  if (message === undefined) throw new BrokenStream("stream ended without message_start");
  const content = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => closeBlock(b));
  return { ...message, content };
}

function addDelta(open: OpenBlock, d: Obj): void {
  const b = open.block;
  if (d.type === "text_delta" && typeof d.text === "string") b.text = `${b.text ?? ""}${d.text}`;
  else if (d.type === "input_json_delta" && typeof d.partial_json === "string")
    open.json = (open.json ?? "") + d.partial_json;
  else if (d.type === "thinking_delta" && typeof d.thinking === "string")
    b.thinking = `${b.thinking ?? ""}${d.thinking}`;
  else if (d.type === "signature_delta" && typeof d.signature === "string") b.signature = d.signature;
  else if (d.type === "citations_delta" && d.citation !== undefined)
    b.citations = [...(Array.isArray(b.citations) ? b.citations : []), d.citation];
}

/** A tool block's input is its JSON pieces parsed; pieces that are not JSON mean the stream broke. */
function closeBlock(open: OpenBlock): Obj {
  if (open.json === null || open.json.trim() === "") return open.block;
  try {
    return { ...open.block, input: JSON.parse(open.json) };
  } catch {
    throw new BrokenStream(`tool input is not JSON: ${JSON.stringify(open.json.slice(0, 120))}`);
  }
}
