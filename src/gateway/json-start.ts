/** A successful answer that is not the API's (a page, garbage): retried like a 5xx, never relayed. */
export class BrokenAnswer extends Error {}

const HEAD_CHARS = 200;

// Whitespace, and the bytes of a byte order mark, which JSON readers skip before the value.
const SKIPPED = new Set([0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf]);

/**
 * The successful answer to a JSON request, still streaming, if its body begins as a JSON object;
 * else (a proxy's page sent with a 200, an empty body) a BrokenAnswer, once the body has been read.
 * Only the start is looked at, so that the answer is still relayed as it arrives: one that breaks
 * off later is cut on its way to the client, never held back or passed as whole.
 */
export async function checkJsonStart(response: Response): Promise<Response> {
  const reader = response.body?.getReader();
  const seen: Uint8Array[] = [];
  let first: number | undefined;
  while (reader !== undefined && first === undefined) {
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
    return new Response(body, { status: response.status, headers: response.headers });
  }
  // Read to its end, as an error's body is, for the reason's excerpt.
  for (let r = await reader?.read(); r !== undefined && !r.done; r = await reader?.read()) seen.push(r.value);
  const text = Buffer.concat(seen).toString("utf8");
  const head = text.length > HEAD_CHARS ? `${text.slice(0, HEAD_CHARS)}…` : text;
  const type = response.headers.get("content-type") || "none";
  throw new BrokenAnswer(`request answered without JSON (content-type ${type}): ${JSON.stringify(head)}`);
}
