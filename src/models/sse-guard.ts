import { APICallError } from "ai";

type Fetch = typeof globalThis.fetch;

/** Whether a request body asks for an SSE answer (`"stream": true`, as every provider sends it). */
export function asksForStream(body: unknown): boolean {
  if (typeof body !== "string" || !body.includes('"stream"')) return false;
  try {
    const v: unknown = JSON.parse(body);
    return typeof v === "object" && v !== null && (v as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}

const HEAD_CHARS = 200;

/** SSE text starts with a field (`data:`, `event:`, `id:`, `retry:`) or a comment (`:`). */
const SSE_START = /^\s*(?:data|event|id|retry)?:/;

/** A successful answer to a streamed request that is not SSE, with the start of its body. */
export interface NotSse {
  reason: string;
  body: string;
}

/**
 * The answer to a streamed request if it is SSE, else what it is. Only an answer not labelled
 * `text/event-stream` is read here: events sent under another type are passed on (whole, and
 * labelled as SSE so that readers of the answer take it as such).
 */
export async function checkSseAnswer(response: Response): Promise<Response | NotSse> {
  const type = response.headers.get("content-type") ?? "";
  if (type.toLowerCase().includes("text/event-stream")) return response;
  const body = await response.text();
  if (SSE_START.test(body)) {
    const headers = new Headers(response.headers);
    headers.set("content-type", "text/event-stream");
    return new Response(body, { status: response.status, headers });
  }
  const head = body.length > HEAD_CHARS ? `${body.slice(0, HEAD_CHARS)}…` : body;
  return {
    reason: `streamed request answered without SSE (content-type ${type || "none"}): ${JSON.stringify(head)}`,
    body,
  };
}

/**
 * A fetch for the providers' SDKs that refuses a successful answer to a streamed request unless it
 * is SSE. The SDKs' event readers find no event in anything else (a proxy's HTML page, a whole
 * JSON completion from a server that ignored `stream`) and some of them then hand back an empty
 * answer as if the model had said nothing. Such an answer is raised as a broken answer (a success
 * status whose body is not the API's), which is retried and, once retries run out, an
 * infrastructure error, as for the same body on a JSON request.
 */
export function sseOnlyFetch(base: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.ok || !asksForStream(init?.body)) return response;
    const checked = await checkSseAnswer(response);
    if (checked instanceof Response) return checked;
    throw new APICallError({
      message: checked.reason,
      url: input instanceof Request ? input.url : String(input),
      requestBodyValues: {},
      statusCode: response.status,
      responseHeaders: Object.fromEntries(response.headers.entries()),
      responseBody: checked.body,
      isRetryable: true,
    });
  };
}
