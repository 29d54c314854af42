import { setImmediate as nextTurn } from "node:timers/promises";
import { errorMessage } from "../core/index.js";
import { type ReadAt, SCAN_CHUNK_BYTES, type Span, type StepsObserver, scanSteps } from "./steps-scan.js";
import { type Loaded, MAX_TRAJECTORY_DEPTH, viewTrajectorySchema } from "./trial-files.js";

/**
 * The whole trajectory as the JSON route serves it (the viewer's fields, as `JSON.stringify` of the
 * checked trajectory gives them), made without holding the file or its parse in memory. Parsed
 * whole, a 63 MB trajectory took 2.5 s and 450 MB per request. Here the file is checked first,
 * so that a damaged step anywhere is a 422 before a byte is sent rather than a 200 cut short,
 * and then written out a batch of steps at a time:
 *
 * 1. the chunk walker checks the structure and notes where each `steps` array and step lies;
 * 2. everything outside the steps arrays is parsed as one text, in which each array is `[]`;
 * 3. the steps are parsed a batch at a time, and those of the array JSON.parse keeps (the last)
 *    are checked;
 * 4. writing parses and checks each batch again and writes it out: about twice the parsing of
 *    the old way, for a bounded amount of memory.
 */

/**
 * Bytes of steps parsed, checked and written at a time. A steps array smaller than this is parsed
 * with the rest of the file; that keeps the notes of a file of many small arrays short.
 */
export const JSON_BATCH_BYTES = 256 * 1024;

/** Consecutive steps of one array: from the first one's start to the last one's end. */
export interface StepBatch {
  start: number;
  end: number;
  /** Position (0-based) of its first step in the array. */
  first: number;
}

/** What the route writes: `whole`, or `head`, the batches' steps separated by commas, and `tail`. */
export interface TrajectoryJsonPlan {
  /** The whole document, when its steps were parsed with the rest of the file. */
  whole: string | null;
  /** Up to and including `"steps":[`. */
  head: string;
  /** From the steps' closing `]`. */
  tail: string;
  batches: StepBatch[];
}

const stepSchema = viewTrajectorySchema.shape.steps.element;
/** Top-level keys checked before the steps: a problem there is the one parsing whole reports first. */
const BEFORE_STEPS = new Set(["schema_version", "session_id", "agent"]);

/** Groups the walker's steps into batches, array by array, keeping the arrays large enough to cut. */
class Batcher implements StepsObserver {
  /** Arrays cut out of the rest of the file, in file order. */
  readonly cut: { open: number; close: number; batches: StepBatch[] }[] = [];
  /** Whether the last array (the one kept) is among `cut`. */
  lastCut = false;
  private opened = -1;
  private batches: StepBatch[] = [];
  private index = 0;
  private start = -1;
  private end = -1;
  private first = 0;

  constructor(private readonly batchBytes: number) {}

  open(pos: number): void {
    this.opened = pos;
    this.batches = [];
    this.index = 0;
    this.start = -1;
  }

  step(start: number, end: number): void {
    if (this.start !== -1 && end - this.start > this.batchBytes) this.flush();
    if (this.start === -1) {
      this.start = start;
      this.first = this.index;
    }
    this.end = end;
    this.index++;
  }

  close(pos: number): void {
    this.flush();
    this.lastCut = pos - this.opened - 1 >= this.batchBytes;
    if (this.lastCut) this.cut.push({ open: this.opened, close: pos, batches: this.batches });
    this.batches = [];
  }

  private flush(): void {
    if (this.start === -1) return;
    this.batches.push({ start: this.start, end: this.end, first: this.first });
    this.start = -1;
  }
}

/** A part of the file that parsing it whole would have refused; its message is the 422's reason. */
class Refused extends Error {}

function readSpans(read: ReadAt, spans: readonly Span[]): string {
  const buf = Buffer.alloc(spans.reduce((n, [s, e]) => n + e - s, 0));
  let at = 0;
  for (const [s, e] of spans) {
    for (let got = -1, n = 0; n < e - s && got !== 0; n += got, at += got) {
      got = read(buf.subarray(at, at + e - s - n), s + n);
    }
  }
  // Spans start and end at ASCII bytes (brackets, quotes, the ends of literals), so decoding
  // them one by one or together gives the same text.
  return buf.toString("utf8", 0, at);
}

/** A batch's steps, parsed as the array they are a slice of. */
function parseBatch(read: ReadAt, b: StepBatch): unknown[] {
  const text = readSpans(read, [[b.start, b.end]]);
  try {
    // Between the steps of a batch there are only commas and spaces; the walker checked that.
    return JSON.parse(`[${text}]`) as unknown[];
  } catch (e) {
    throw new Refused(`not JSON: ${errorMessage(e)}`);
  }
}

function issueText(
  issue: { path: PropertyKey[]; message: string } | undefined,
  prefix: string[] = [],
): string {
  return `${[...prefix, ...(issue?.path ?? []).map(String)].join(".")}: ${issue?.message ?? "invalid"}`;
}

/** The first step of a batch that is not what the viewer shows, as parsing whole words it. */
function badStep(steps: unknown[], first: number): string | null {
  for (let i = 0; i < steps.length; i++) {
    const r = stepSchema.safeParse(steps[i]);
    if (!r.success) return issueText(r.error.issues[0], ["steps", String(first + i)]);
  }
  return null;
}

/**
 * Checks a trajectory of `size` bytes read through `read` as parsing it whole would (the same
 * verdict; a reason may be worded differently), and plans its JSON. Yields to other requests
 * between batches.
 */
export async function planTrajectoryJson(
  read: ReadAt,
  size: number,
  batchBytes = JSON_BATCH_BYTES,
  chunkBytes = SCAN_CHUNK_BYTES,
): Promise<Loaded<TrajectoryJsonPlan>> {
  const batcher = new Batcher(batchBytes);
  const scanned = scanSteps(read, 0, MAX_TRAJECTORY_DEPTH, chunkBytes, 0, batcher);
  if (!scanned.ok) return { state: "invalid", reason: scanned.reason };
  const outside: Span[] = [];
  let from = 0;
  for (const a of batcher.cut) {
    outside.push([from, a.open + 1]);
    from = a.close;
  }
  outside.push([from, size]);
  let top: unknown;
  try {
    top = JSON.parse(readSpans(read, outside));
  } catch (e) {
    return { state: "invalid", reason: `not JSON: ${errorMessage(e)}` };
  }
  let stepIssue: string | null = null;
  try {
    for (const [k, a] of batcher.cut.entries()) {
      const kept = batcher.lastCut && k === batcher.cut.length - 1;
      for (const b of a.batches) {
        await nextTurn();
        // Every array must be JSON, as parsing whole demands; only the kept one's steps are checked.
        const steps = parseBatch(read, b);
        if (kept && stepIssue === null) stepIssue = badStep(steps, b.first);
      }
    }
  } catch (e) {
    if (e instanceof Refused) return { state: "invalid", reason: e.message };
    throw e;
  }
  const parsed = viewTrajectorySchema.safeParse(top);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (stepIssue === null || BEFORE_STEPS.has(String(issue?.path[0])))
      return { state: "invalid", reason: issueText(issue) };
  }
  if (stepIssue !== null) return { state: "invalid", reason: stepIssue };
  if (!parsed.success) throw new Error("unreachable: a failed check with no reason");
  const whole = JSON.stringify(parsed.data);
  if (!batcher.lastCut) return { state: "ok", value: { whole, head: "", tail: "", batches: [] } };
  // The kept array is `[]` in `parsed.data`: its text splits the document into head and tail.
  const data = parsed.data as Record<string, unknown>;
  const keys = Object.keys(data).filter((key) => JSON.stringify(data[key]) !== undefined);
  const at = keys.indexOf("steps");
  const pair = (key: string) => `${JSON.stringify(key)}:${JSON.stringify(data[key])}`;
  const head = `{${[...keys.slice(0, at).map(pair), '"steps":['].join(",")}`;
  const tail = `]${keys
    .slice(at + 1)
    .map((key) => `,${pair(key)}`)
    .join("")}}`;
  if (head + tail !== whole) throw new Error("the trajectory's JSON did not split around its steps");
  return { state: "ok", value: { whole: null, head, tail, batches: batcher.cut.at(-1)?.batches ?? [] } };
}

/**
 * The planned document, piece by piece: each batch of steps is read, parsed and checked again
 * and written out. A batch that no longer parses or checks (the file changed) throws.
 */
export function* trajectoryJsonParts(plan: TrajectoryJsonPlan, read: ReadAt): Generator<string> {
  if (plan.whole !== null) {
    yield plan.whole;
    return;
  }
  yield plan.head;
  for (const [k, b] of plan.batches.entries()) {
    const steps = parseBatch(read, b).map((s) => stepSchema.parse(s));
    const text = JSON.stringify(steps);
    yield k === 0 ? text.slice(1, -1) : `,${text.slice(1, -1)}`;
  }
  yield plan.tail;
}
