import { APICallError } from "@ai-sdk/provider";

/** The most bytes of one answer's body that are read from a model server (`max_answer_mib`). */
export const DEFAULT_MAX_ANSWER_MIB = 64;

const MIB = 1024 * 1024;

export function answerCapBytes(mib: number): number {
  return Math.max(1, Math.floor(mib * MIB));
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function capText(bytes: number): string {
  const mib = bytes / MIB;
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

/**
 * An answer whose body passed the cap: a server that streams without end (or sends one endless
 * line) would otherwise grow the host's memory until it dies. The server's failure, never the
 * agent's: retried like any broken answer, then an infrastructure error.
 */
export class AnswerTooLarge extends APICallError {
  readonly capBytes: number;
  constructor(url: string, capBytes: number, response: Response) {
    super({
      message:
        `answer from ${origin(url)} passed the ${capText(capBytes)} cap on an answer's size ` +
        "(max_answer_mib); cut there",
      url,
      requestBodyValues: {},
      statusCode: response.status,
      responseHeaders: Object.fromEntries(response.headers.entries()),
      isRetryable: true,
    });
    this.capBytes = capBytes;
  }
}

/** Whether `e`, or an error it wraps, is an AnswerTooLarge (SDKs may wrap stream errors). */
export function findAnswerTooLarge(e: unknown, depth = 0): AnswerTooLarge | null {
  if (e instanceof AnswerTooLarge) return e;
  if (depth > 4 || typeof e !== "object" || e === null) return null;
  return findAnswerTooLarge((e as { cause?: unknown }).cause, depth + 1);
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The same answer, with a body that fails with AnswerTooLarge once more than `capBytes` have
 * passed. The server's body is then cancelled, which closes its connection: nothing more is
 * read, and whoever reads the answer (whole, as `text()` does, or as it streams) gets the error
 * instead of an ever longer body.
 */
export function capAnswer(response: Response, url: string, capBytes: number): Response {
  const source = response.body;
  // Statuses without a body (204, 304) cannot be rebuilt with one, and have nothing to cap.
  if (source === null || NULL_BODY.has(response.status)) return response;
  const reader = source.getReader();
  let read = 0;
  const body = new ReadableStream<Uint8Array>({
    pull: async (c) => {
      const r = await reader.read();
      if (r.done) {
        c.close();
        return;
      }
      read += r.value.byteLength;
      if (read > capBytes) {
        const e = new AnswerTooLarge(url, capBytes, response);
        await reader.cancel(e).catch(() => undefined);
        c.error(e);
        return;
      }
      c.enqueue(r.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
