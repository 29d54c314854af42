/**
 * Finding a trajectory's steps without parsing them. A trajectory is one JSON object whose `steps`
 * array can hold a million steps; parsing all of them to show a few hundred took seconds and
 * hundreds of MB per page view. This walks the bytes once, keeping only where each step starts and
 * ends (the first and the last ones), so a caller parses just the steps it shows.
 *
 * The walk checks structure, not every token: the top level is an object of `"key": value` pairs
 * with nothing after it, `steps` an array of values separated by commas, brackets match, strings
 * end, and nothing nests deeper than a limit. Inside a value only brackets and strings are
 * followed, so a step that is not parsed may still hold a bad number or a missing comma.
 */

/** A byte range [start, end) of the scanned buffer. */
export type Span = [number, number];

export interface StepsScan {
  /** The first `edge` steps (fewer when there are fewer), in file order. */
  first: Span[];
  /** The last `edge` steps, in file order; they overlap `first` when there are under 2 × edge. */
  last: Span[];
  /** How many steps the array holds. */
  total: number;
  /** The top-level `agent` value, when there is one. */
  agent: Span | null;
}

export type ScanOutcome = { ok: true; scan: StepsScan } | { ok: false; reason: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** What a byte means inside a value: nothing, a quote, an opening or a closing bracket. */
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

/** Why a walk stopped, reported as the page's reason. */
class ScanError extends Error {}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(b: Buffer, i: number): number {
  while (isSpace(b[i])) i++;
  return i;
}

/** Index just past the string whose opening quote is at `open`. */
function stringEnd(b: Buffer, open: number): number {
  for (let j = open + 1; j < b.length; j++) {
    const c = b[j];
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH) j++;
  }
  throw new ScanError("not JSON: unterminated string");
}

/**
 * Index just past the array or object opened at `open`, which sits `depth` levels deep (the top
 * object is level 1). `kinds` holds each open level's bracket, to match the closing ones.
 */
function containerEnd(b: Buffer, open: number, depth: number, maxDepth: number, kinds: Uint8Array): number {
  if (depth > maxDepth) throw new ScanError(`nested deeper than ${maxDepth} levels`);
  const base = depth;
  kinds[depth] = b[open] as number;
  const n = b.length;
  // The hot loop: one table lookup per byte, and strings skipped inline.
  for (let i = open + 1; i < n; i++) {
    const c = b[i] as number;
    const cls = CLASS[c];
    if (cls === PLAIN) continue;
    if (cls === STRING) {
      i++;
      while (i < n) {
        const d = b[i];
        if (d === QUOTE) break;
        if (d === BACKSLASH) i++;
        i++;
      }
      if (i >= n) break;
    } else if (cls === OPEN) {
      if (depth >= maxDepth) throw new ScanError(`nested deeper than ${maxDepth} levels`);
      kinds[++depth] = c;
    } else {
      // A closing bracket is its opening one plus 2 in ASCII: `[` `]`, `{` `}`.
      if (kinds[depth] !== c - 2) throw new ScanError("not JSON: mismatched brackets");
      if (depth === base) return i + 1;
      depth--;
    }
  }
  throw new ScanError("not JSON: unexpected end of the file");
}

/** Index just past the value starting at `i` (a string, array, object, number or literal). */
function valueEnd(b: Buffer, i: number, depth: number, maxDepth: number, kinds: Uint8Array): number {
  const c = b[i];
  if (c === QUOTE) return stringEnd(b, i);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) return containerEnd(b, i, depth, maxDepth, kinds);
  let j = i;
  while (
    j < b.length &&
    !isSpace(b[j]) &&
    CLASS[b[j] as number] === PLAIN &&
    b[j] !== COMMA &&
    b[j] !== COLON
  )
    j++;
  if (j === i) throw new ScanError("not JSON: a value is missing");
  return j;
}

/** A top-level key as JSON reads it (escapes included). */
function keyText(b: Buffer, open: number, end: number): string {
  const raw = b.toString("utf8", open, end);
  if (!raw.includes("\\")) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    throw new ScanError("not JSON: bad escape in a key");
  }
}

/**
 * The steps of the array opened at `open` (level 2): their count and where the kept ones are.
 * One loop walks the whole array, steps included, rather than one call per step: a million calls
 * to a short function run cold for long, and the first page view paid three times the warm cost.
 */
function stepsOf(
  b: Buffer,
  open: number,
  edge: number,
  maxDepth: number,
  kinds: Uint8Array,
): { end: number; first: Span[]; last: Span[]; total: number } {
  if (2 > maxDepth) throw new ScanError(`nested deeper than ${maxDepth} levels`);
  kinds[2] = OPEN_ARRAY;
  // Where the first `edge` steps are, and the last `edge` as a ring: typed arrays, so that a
  // million steps allocate nothing (and the loop keeps to one shape of object).
  const firstStart = new Float64Array(edge);
  const firstEnd = new Float64Array(edge);
  const ringStart = new Float64Array(edge);
  const ringEnd = new Float64Array(edge);
  let total = 0;
  let depth = 2;
  // The step being read (-1 between steps) and the end of its last byte so far.
  let start = -1;
  let end = -1;
  const n = b.length;
  let i = open + 1;
  for (; i < n; i++) {
    const c = b[i] as number;
    const cls = CLASS[c];
    if (cls === PLAIN) {
      if (depth !== 2 || isSpace(c)) continue;
      if (c === COMMA) {
        if (start === -1) throw new ScanError("not JSON: a step is missing");
        if (total < edge) {
          firstStart[total] = start;
          firstEnd[total] = end;
        }
        if (edge > 0) {
          ringStart[total % edge] = start;
          ringEnd[total % edge] = end;
        }
        total++;
        start = -1;
        continue;
      }
      // A number or literal step (not a valid step, but told apart when parsed if shown).
      if (start === -1) start = i;
      else if (end !== i) throw new ScanError("not JSON: expected ',' or ']' after a step");
      end = i + 1;
      continue;
    }
    if (depth === 2 && cls !== CLOSE) {
      if (start !== -1) throw new ScanError("not JSON: expected ',' or ']' after a step");
      start = i;
    }
    if (cls === STRING) {
      i++;
      while (i < n) {
        const d = b[i];
        if (d === QUOTE) break;
        if (d === BACKSLASH) i++;
        i++;
      }
      if (i >= n) break;
    } else if (cls === OPEN) {
      if (depth >= maxDepth) throw new ScanError(`nested deeper than ${maxDepth} levels`);
      kinds[++depth] = c;
    } else {
      // A closing bracket is its opening one plus 2 in ASCII: `[` `]`, `{` `}`.
      if (kinds[depth] !== c - 2) throw new ScanError("not JSON: mismatched brackets");
      if (depth === 2) break;
      depth--;
    }
    if (depth === 2) end = i + 1;
  }
  if (i >= n) throw new ScanError("not JSON: unexpected end of the file");
  // The closing bracket ends the last step, unless the array is empty.
  if (start !== -1) {
    if (total < edge) {
      firstStart[total] = start;
      firstEnd[total] = end;
    }
    if (edge > 0) {
      ringStart[total % edge] = start;
      ringEnd[total % edge] = end;
    }
    total++;
  } else if (total > 0) throw new ScanError("not JSON: a step is missing");
  const last: Span[] = [];
  for (let k = Math.max(0, total - edge); k < total; k++) {
    last.push([ringStart[k % edge] as number, ringEnd[k % edge] as number]);
  }
  const first: Span[] = [];
  for (let k = 0; k < Math.min(edge, total); k++)
    first.push([firstStart[k] as number, firstEnd[k] as number]);
  return { end: i + 1, first, last, total };
}

/**
 * Walks `b`, a trajectory's bytes, noting its steps' spans: the first and last `edge` of them and
 * their count. A key given twice counts its last value, as JSON.parse does.
 */
export function scanSteps(b: Buffer, edge: number, maxDepth: number): ScanOutcome {
  try {
    return { ok: true, scan: walk(b, edge, maxDepth) };
  } catch (e) {
    if (e instanceof ScanError) return { ok: false, reason: e.message };
    throw e;
  }
}

function walk(b: Buffer, edge: number, maxDepth: number): StepsScan {
  const kinds = new Uint8Array(maxDepth + 1);
  let i = skipSpace(b, 0);
  if (b[i] !== OPEN_OBJECT) throw new ScanError("not a JSON object");
  let steps: Omit<StepsScan, "agent"> | null = null;
  let agent: Span | null = null;
  i = skipSpace(b, i + 1);
  if (b[i] !== CLOSE_OBJECT) {
    for (;;) {
      if (b[i] !== QUOTE) throw new ScanError("not JSON: expected a key in the trajectory object");
      const keyEnd = stringEnd(b, i);
      const key = keyText(b, i, keyEnd);
      i = skipSpace(b, keyEnd);
      if (b[i] !== COLON) throw new ScanError("not JSON: expected ':' after a key");
      const start = skipSpace(b, i + 1);
      let end: number;
      if (key === "steps") {
        if (b[start] !== OPEN_ARRAY) throw new ScanError("steps: expected an array");
        const found = stepsOf(b, start, edge, maxDepth, kinds);
        ({ end } = found);
        steps = found;
      } else {
        end = valueEnd(b, start, 2, maxDepth, kinds);
        if (key === "agent") agent = [start, end];
      }
      i = skipSpace(b, end);
      if (b[i] === CLOSE_OBJECT) break;
      if (b[i] !== COMMA) throw new ScanError("not JSON: expected ',' or '}' after a value");
      i = skipSpace(b, i + 1);
    }
  }
  if (skipSpace(b, i + 1) < b.length) throw new ScanError("not JSON: text after the end of the trajectory");
  if (steps === null) throw new ScanError("steps: expected an array, found none");
  return { first: steps.first, last: steps.last, total: steps.total, agent };
}
