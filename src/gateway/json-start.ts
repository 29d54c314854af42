import { assembleStreamedAnswer, isEventStream, SSE_START, type WireFormat } from "../models/index.js";

/** A successful answer that is not the API's (a page, garbage): retried like a 5xx, never relayed. */
export class BrokenAnswer extends Error {}

const HEAD_CHARS = 200;

// Whitespace, and the bytes of a byte order mark, which JSON readers skip before the value.
const SKIPPED = new Set([0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf]);

/** The answer to a JSON request, and whether it was assembled from SSE events. */
export interface JsonStart {
  response: Response;
  assembled: boolean;
}

/**
 * The successful answer to a JSON request, still streaming, if its body begins as a JSON object.
 * An SSE stream (a server that streams whatever it is asked) is read to its end, with `onChunk`
 * called as each part arrives when it is labelled so, and becomes the whole JSON answer its events carry; a stream that
 * is not whole is a BrokenAnswer. Anything else (a proxy's page sent with a 200, an empty body)
 * is a BrokenAnswer, once the body has been read. Only the start of a JSON body is looked at, so
 * that the answer is still relayed as it arrives: one that breaks off later is cut on its way to
 * the client, never held back or passed as whole.
 */
export async function checkJsonStart(
  response: Response,
  wire: WireFormat,
  onChunk: () => void = () => {},
): Promise<JsonStart> {
  const reader = response.body?.getReader();
  const seen: Uint8Array[] = [];
  let first: number | undefined;
  const sse = isEventStream(response);
  while (reader !== undefined && first === undefined && !sse) {
    const r = await reader.read();
    if (r.done) break;
    seen.push(r.value);
    first = r.value.find((b: number) => !SKIPPED.has(b));
  }
  if (reader !== undefined && first === 0x7b) {
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        for (const chunk of seen) c.enqueue(chunk);
      },
      pull: async (c) => {
        const r = await reader.read();
        if (r.done) c.close();
        else c.enqueue(r.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return {
      response: new Response(body, { status: response.status, headers: response.headers }),
      assembled: false,
    };
  }
  // Read to its end, as an error's body is, for the reason's excerpt or the events.
  for (let r = await reader?.read(); r !== undefined && !r.done; r = await reader?.read()) {
    seen.push(r.value);
    if (sse) onChunk();
  }
  const text = Buffer.concat(seen).toString("utf8");
  if (sse || SSE_START.test(text)) {
    const assembled = assembleStreamedAnswer(response, text, wire);
    if (assembled.kind === "broken") throw new BrokenAnswer(assembled.reason);
    return { response: assembled.response, assembled: true };
  }
  const head = text.length > HEAD_CHARS ? `${text.slice(0, HEAD_CHARS)}…` : text;
  const type = response.headers.get("content-type") || "none";
  throw new BrokenAnswer(`request answered without JSON (content-type ${type}): ${JSON.stringify(head)}`);
}
