/** One event of an SSE stream: its `event:` name (when sent) and its `data:` lines joined. */
export interface SseMessage {
  event: string | undefined;
  data: string;
}

/**
 * The events of a whole SSE text, as an EventSource reads them: fields up to a blank line make
 * one event, several `data:` lines are joined by newlines, comments (`:`) and events without
 * data are skipped. The last event counts only if a blank line ended it, so an event cut off
 * mid-way (the stream broke) is not read as whole.
 */
export function parseSseText(text: string): SseMessage[] {
  const out: SseMessage[] = [];
  let event: string | undefined;
  let data: string[] = [];
  for (const line of text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length > 0) out.push({ event, data: data.join("\n") });
      event = undefined;
      data = [];
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
  }
  return out;
}

/** A stream that cannot stand for a whole answer: it broke off, or it carries an error. */
export class BrokenStream extends Error {}

/** An event's data as a JSON object; invalid JSON means the stream is broken, not that it is short. */
export function eventJson(m: SseMessage): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(m.data);
  } catch {
    throw new BrokenStream(`event data is not JSON: ${JSON.stringify(m.data.slice(0, 120))}`);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new BrokenStream(`event data is not a JSON object: ${JSON.stringify(m.data.slice(0, 120))}`);
  return v as Record<string, unknown>;
}

export type Obj = Record<string, unknown>;

export function asObj(v: unknown): Obj | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}
