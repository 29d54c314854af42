import type { ServerResponse } from "node:http";
import { findAnswerTooLarge } from "../models/index.js";

export interface RelayOutcome {
  /** The bytes kept for the record (all of a JSON answer, SSE text up to `keepLimit`). */
  kept: Buffer;
  /** Why the answer did not arrive whole (upstream cut, stalled, client gone), or null. */
  cut: string | null;
  /** The cut came from the answer passing the size cap (AnswerTooLarge). */
  overCap: boolean;
}

export interface RelayInput {
  body: AsyncIterable<Uint8Array> | null;
  res: ServerResponse;
  /** Aborts the upstream fetch, which ends the body's iteration with an error. */
  abort: (reason: Error) => void;
  /** Longest silence allowed between two chunks of the upstream's body. */
  idleMs: number;
  keepLimit: number;
  onChunk: (chunk: Uint8Array) => void;
}

/**
 * Copies the upstream's body to the client as it arrives. An upstream that goes silent for
 * `idleMs` is cut (the header timeout no longer applies once the body streams), and an answer
 * that did not arrive whole is never ended cleanly: the client's connection is destroyed, so its
 * client sees a failed call that it may retry, not a short answer that looks complete.
 */
export async function relayBody(x: RelayInput): Promise<RelayOutcome> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let cut: string | null = null;
  let overCap = false;
  let idle: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => x.abort(new Error(`upstream sent nothing for ${x.idleMs / 1000} s`)), x.idleMs);
  };
  try {
    arm();
    if (x.body !== null) {
      for await (const chunk of x.body) {
        arm();
        // A client that went away is not written to; the rest is still read (see handleModelCall).
        if (!x.res.destroyed && !x.res.write(chunk)) await drained(x.res);
        x.onChunk(chunk);
        if (kept < x.keepLimit) {
          chunks.push(Buffer.from(chunk));
          kept += chunk.byteLength;
        }
      }
    }
  } catch (e) {
    cut = e instanceof Error ? e.message : String(e);
    overCap = findAnswerTooLarge(e) !== null;
  } finally {
    clearTimeout(idle);
  }
  if (cut === null) x.res.end();
  else x.res.destroy();
  return { kept: Buffer.concat(chunks), cut, overCap };
}

/** Resolves once the client has taken the buffered bytes, or has gone away (no drain then). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((ok) => {
    if (res.destroyed) return ok();
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      ok();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
