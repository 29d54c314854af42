/**
 * Finding a trajectory's steps without parsing them. A trajectory is one JSON object whose `steps`
 * array can hold a million steps; parsing all of them to show a few hundred took seconds and
 * hundreds of MB per page view. This walks the bytes once, in chunks read into one small buffer,
 * keeping only where each step starts and ends (the first and the last ones), so a caller reads
 * and parses just the steps it shows.
 *
 * The walk checks structure, not every token: the top level is an object of `"key": value` pairs
 * with nothing after it, `steps` an array of values separated by commas, brackets match, strings
 * end, and nothing nests deeper than a limit. Inside a value only brackets and strings are
 * followed, so a step that is not parsed may still hold a bad number or a missing comma.
 */

/** A byte range [start, end) of the file. */
export type Span = [number, number];

/** Reads bytes at `position` into `buf`, returning how many (0 at the end of the file). */
export type ReadAt = (buf: Buffer, position: number) => number;

export interface StepsScan {
  /** The `edge` steps from position `from` (0-based; the first steps by default), in file order. */
  first: Span[];
  /** The last `edge` steps, in file order; they overlap `first` when there are under 2 × edge. */
  last: Span[];
  /** How many steps the array holds. */
  total: number;
  /** The top-level `agent` value, when there is one. */
  agent: Span | null;
}

export type ScanOutcome = { ok: true; scan: StepsScan } | { ok: false; reason: string };

/**
 * Told of every `steps` array and every step as the walk passes them, for a caller that goes
 * through all of them (the JSON route) rather than the ends. A key given twice opens a second
 * array; the last one opened is the one JSON.parse keeps.
 */
export interface StepsObserver {
  /** A `steps` array opens; `pos` is its `[`. */
  open(pos: number): void;
  /** A step of the array last opened: bytes [start, end). */
  step(start: number, end: number): void;
  /** The array closes; `pos` is its `]`. */
  close(pos: number): void;
}

/** Bytes read at a time. */
export const SCAN_CHUNK_BYTES = 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** What a byte means outside strings: nothing, a quote, an opening or a closing bracket. */
const PLAIN = 0;
const STRING = 1;
const OPEN = 2;
const CLOSE = 3;
const CLASS = new Uint8Array(256);
CLASS[QUOTE] = STRING;
CLASS[OPEN_OBJECT] = OPEN;
CLASS[OPEN_ARRAY] = OPEN;
CLASS[CLOSE_OBJECT] = CLOSE;
CLASS[CLOSE_ARRAY] = CLOSE;

/** Where the walk is among the top-level object's `"key": value` pairs. */
const KEY = 0;
const COLON_NEXT = 1;
const VALUE = 2;
const AFTER_VALUE = 3;

/** Keys longer than this are kept unread: none of them can be `steps` or `agent`. */
const MAX_KEY_BYTES = 256;

/** Why a walk stopped, reported as the page's reason. */
class ScanError extends Error {}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** A top-level key as JSON reads it (escapes included); its bytes are between the quotes. */
function keyText(bytes: number[]): string {
  const raw = Buffer.from(bytes).toString("utf8");
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    throw new ScanError("not JSON: bad escape in a key");
  }
}

/** A reader over bytes already in memory. */
export function bufferReader(b: Buffer): ReadAt {
  return (buf, position) => b.copy(buf, 0, position, Math.min(b.length, position + buf.length));
}

/**
 * Walks a trajectory's bytes, noting its steps' spans: the first and last `edge` of them and their
 * count. A key given twice counts its last value, as JSON.parse does.
 */
export function scanSteps(
  read: ReadAt,
  edge: number,
  maxDepth: number,
  chunkBytes = SCAN_CHUNK_BYTES,
  from = 0,
  observer: StepsObserver | null = null,
): ScanOutcome {
  try {
    return { ok: true, scan: walk(read, edge, maxDepth, chunkBytes, from, observer) };
  } catch (e) {
    if (e instanceof ScanError) return { ok: false, reason: e.message };
    throw e;
  }
}

/**
 * One loop over every byte, its state in local variables so that it stays fast: strings are
 * skipped, brackets counted, and only bytes at the top two levels (the trajectory object and the
 * steps array) do more.
 */
function walk(
  read: ReadAt,
  edge: number,
  maxDepth: number,
  chunkBytes: number,
  from: number,
  observer: StepsObserver | null,
): StepsScan {
  const tooDeep = `nested deeper than ${maxDepth} levels`;
  const chunk = Buffer.alloc(chunkBytes);
  const kinds = new Uint8Array(maxDepth + 1);
  let depth = 0;
  let inString = false;
  let escaped = false;
  let ended = false;
  // The top-level pair being read.
  let phase = KEY;
  let pairs = 0;
  let keyBytes: number[] | null = null;
  let key = "";
  let valueStart = -1;
  let valueEnd = -1;
  let agent: Span | null = null;
  // The steps array, while inside it (its steps sit at level 2), and the step being read.
  let sawSteps = false;
  let inSteps = false;
  let start = -1;
  let end = -1;
  let total = 0;
  // Where the `edge` steps from `from` are, and the last `edge` as a ring: typed arrays, so that a
  // million steps allocate nothing. (Recorded inline below: a closure over these would slow the loop.)
  const firstStart = new Float64Array(edge);
  const firstEnd = new Float64Array(edge);
  const ringStart = new Float64Array(edge);
  const ringEnd = new Float64Array(edge);
  for (let base = 0; ; ) {
    const n = read(chunk, base);
    if (n <= 0) break;
    for (let j = 0; j < n; j++) {
      const c = chunk[j] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (keyBytes !== null) {
            key = keyBytes.length > MAX_KEY_BYTES ? "" : keyText(keyBytes);
            keyBytes = null;
            phase = COLON_NEXT;
          } else if (depth === 1) valueEnd = base + j + 1;
          else if (depth === 2 && inSteps) end = base + j + 1;
          continue;
        }
        if (keyBytes !== null && keyBytes.length <= MAX_KEY_BYTES) keyBytes.push(c);
        continue;
      }
      const cls = CLASS[c] as number;
      // Inside a step or another value: only strings and brackets matter. The hot path.
      if (depth >= 3) {
        if (cls === PLAIN) continue;
        if (cls === STRING) inString = true;
        else if (cls === OPEN) {
          if (depth >= maxDepth) throw new ScanError(tooDeep);
          kinds[++depth] = c;
        } else {
          // A closing bracket is its opening one plus 2 in ASCII: `[` `]`, `{` `}`.
          if (kinds[depth] !== c - 2) throw new ScanError("not JSON: mismatched brackets");
          depth--;
          if (depth === 2 && inSteps) end = base + j + 1;
        }
        continue;
      }
      if (isSpace(c)) continue;
      const pos = base + j;
      if (ended) throw new ScanError("not JSON: text after the end of the trajectory");
      if (depth === 0) {
        if (c !== OPEN_OBJECT) throw new ScanError("not a JSON object");
        if (maxDepth < 1) throw new ScanError(tooDeep);
        kinds[++depth] = c;
        continue;
      }
      if (depth === 1) {
        if (phase === KEY) {
          if (c === CLOSE_OBJECT && pairs === 0) {
            depth = 0;
            ended = true;
          } else if (c === QUOTE) {
            inString = true;
            keyBytes = [];
          } else throw new ScanError("not JSON: expected a key in the trajectory object");
        } else if (phase === COLON_NEXT) {
          if (c !== COLON) throw new ScanError("not JSON: expected ':' after a key");
          phase = VALUE;
        } else if (phase === VALUE) {
          valueStart = pos;
          valueEnd = pos + 1;
          phase = AFTER_VALUE;
          pairs++;
          if (key === "steps") {
            if (c !== OPEN_ARRAY) throw new ScanError("steps: expected an array");
            sawSteps = true;
            inSteps = true;
            total = 0;
            start = -1;
            observer?.open(pos);
          }
          if (cls === STRING) inString = true;
          else if (cls === OPEN) {
            if (depth >= maxDepth) throw new ScanError(tooDeep);
            kinds[++depth] = c;
          } else if (cls === CLOSE || c === COMMA || c === COLON)
            throw new ScanError("not JSON: a value is missing");
        } else if (c === COMMA || c === CLOSE_OBJECT) {
          if (key === "agent") agent = [valueStart, valueEnd];
          phase = KEY;
          if (c === CLOSE_OBJECT) {
            depth = 0;
            ended = true;
          }
        } else if (cls === PLAIN && c !== COLON && valueEnd === pos) {
          valueEnd = pos + 1; // a number or literal goes on
        } else throw new ScanError("not JSON: expected ',' or '}' after a value");
        continue;
      }
      // Level 2: a step, or the inside of another top-level value.
      if (inSteps) {
        if (c === COMMA) {
          if (start === -1) throw new ScanError("not JSON: a step is missing");
          if (total >= from && total - from < edge) {
            firstStart[total - from] = start;
            firstEnd[total - from] = end;
          }
          if (edge > 0) {
            ringStart[total % edge] = start;
            ringEnd[total % edge] = end;
          }
          observer?.step(start, end);
          total++;
          start = -1;
          continue;
        }
        if (c === CLOSE_ARRAY) {
          if (start !== -1) {
            if (total >= from && total - from < edge) {
              firstStart[total - from] = start;
              firstEnd[total - from] = end;
            }
            if (edge > 0) {
              ringStart[total % edge] = start;
              ringEnd[total % edge] = end;
            }
            observer?.step(start, end);
            total++;
            start = -1;
          } else if (total > 0) throw new ScanError("not JSON: a step is missing");
          observer?.close(pos);
          inSteps = false;
          depth = 1;
          valueEnd = pos + 1;
          continue;
        }
        if (start !== -1 && !(cls === PLAIN && end === pos))
          throw new ScanError("not JSON: expected ',' or ']' after a step");
        if (start === -1) start = pos;
        end = pos + 1;
      }
      if (cls === STRING) inString = true;
      else if (cls === OPEN) {
        if (depth >= maxDepth) throw new ScanError(tooDeep);
        kinds[++depth] = c;
      } else if (cls === CLOSE) {
        if (kinds[depth] !== c - 2) throw new ScanError("not JSON: mismatched brackets");
        depth--;
        valueEnd = pos + 1;
      }
    }
    base += n;
  }
  if (!ended || inString) throw new ScanError("not JSON: unexpected end of the file");
  if (!sawSteps) throw new ScanError("steps: expected an array, found none");
  const first: Span[] = [];
  for (let k = 0; k < Math.min(edge, total - from); k++)
    first.push([firstStart[k] as number, firstEnd[k] as number]);
  const last: Span[] = [];
  for (let k = Math.max(0, total - edge); k < total; k++) {
    last.push([ringStart[k % edge] as number, ringEnd[k % edge] as number]);
  }
  return { first, last, total, agent };
}
