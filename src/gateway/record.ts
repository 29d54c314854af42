import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { dirname } from "node:path";

/** One line of `gateway.jsonl` (docs/gateway.md). */
export interface ExchangeRecord {
  time: string;
  api: string;
  method: string;
  path: string;
  status: number;
  /** The trial's model (what was sent upstream) and what the agent asked for. */
  model: string;
  requested_model: string | null;
  stream: boolean;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cached_tokens: number;
    cache_write_tokens: number;
    reasoning_tokens: number;
  } | null;
  cost_usd: number;
  latency_ms: number;
  attempts: number;
  retry_ms: number;
  /** Set when the gateway answered itself: auth, budget, a malformed request, an upstream give-up. */
  refused: string | null;
  request: { headers: Record<string, string>; body: unknown };
  response: { headers: Record<string, string>; body: unknown };
}

export const REDACTED = "[redacted]";
const SECRET_HEADER = /authorization|api-key|apikey|token|secret|cookie|password/i;

export function redactHeaders(
  h: IncomingHttpHeaders | Headers | Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: [string, unknown][] =
    h instanceof Headers ? [...h.entries()] : Object.entries(h as Record<string, unknown>);
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    out[k] = SECRET_HEADER.test(k) ? REDACTED : Array.isArray(v) ? v.join(", ") : String(v);
  }
  return out;
}

export interface RecorderLimits {
  /** Bytes of one request or response body kept; longer ones are cut and marked. */
  maxBodyBytes: number;
  /** Bytes of the whole file; past it lines keep their metadata but lose their bodies. */
  maxFileBytes: number;
}

export const DEFAULT_RECORD_LIMITS: RecorderLimits = {
  maxBodyBytes: 256 * 1024,
  maxFileBytes: 64 * 1024 * 1024,
};

/**
 * Appends exchanges as JSON lines. Every secret the gateway knows (the real key, the trial's
 * token) is replaced wherever it appears, headers and bodies alike, before a line is written.
 */
export class ExchangeRecorder {
  // Opened at the first exchange: a trial whose agent never calls its model leaves no file.
  private out: WriteStream | null = null;
  private bytes = 0;
  private readonly secrets: string[];

  constructor(
    readonly path: string,
    secrets: readonly (string | undefined)[],
    private readonly limits: RecorderLimits = DEFAULT_RECORD_LIMITS,
  ) {
    // Longest first, so a secret that contains another is replaced whole.
    this.secrets = secrets
      .filter((s): s is string => s !== undefined && s.length >= 4)
      .sort((a, b) => b.length - a.length);
  }

  /** A body for the record: parsed JSON when it is JSON and fits, else (cut) text. */
  body(raw: string): unknown {
    if (raw.length === 0) return null;
    // Scrubbed before it is cut: a cut through a secret would leave its head in the record.
    const text = this.scrub(raw);
    if (Buffer.byteLength(text) > this.limits.maxBodyBytes) {
      const cut = Buffer.from(text).subarray(0, this.limits.maxBodyBytes).toString("utf8");
      return { truncated: true, bytes: Buffer.byteLength(text), head: cut };
    }
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  write(r: ExchangeRecord): void {
    let line = this.scrub(JSON.stringify(r));
    if (this.bytes + line.length > this.limits.maxFileBytes) {
      const slim = {
        ...r,
        request: { headers: r.request.headers, body: null },
        response: { headers: r.response.headers, body: null },
        bodies_dropped: "record file full",
      };
      line = this.scrub(JSON.stringify(slim));
    }
    this.bytes += line.length + 1;
    if (this.out === null) {
      mkdirSync(dirname(this.path), { recursive: true });
      this.out = createWriteStream(this.path, { flags: "a" });
    }
    this.out.write(`${line}\n`);
  }

  private scrub(text: string): string {
    let t = text;
    for (const s of this.secrets) t = t.split(s).join(REDACTED);
    return t;
  }

  close(): Promise<void> {
    const out = this.out;
    return out === null ? Promise.resolve() : new Promise((ok) => out.end(() => ok()));
  }
}
