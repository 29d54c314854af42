import type { Rng } from "../core/rng.js";
import { type Row, StressError } from "./types.js";

export interface JitterOptions {
  /** absolute: |new − old| ≤ bound; relative: |new − old| ≤ bound·|old|. */
  bound: number;
  mode?: "absolute" | "relative";
  fields?: readonly string[];
}

export interface JitterChange {
  row: number;
  field: string;
  from: number;
  to: number;
}

/** Add uniform noise in [−bound, bound] (scaled by |value| in relative mode) to numeric cells. */
export function jitterNumbers(
  rng: Rng,
  rows: readonly Row[],
  options: JitterOptions,
): { rows: Row[]; changes: JitterChange[] } {
  if (!(options.bound >= 0)) throw new StressError("jitterNumbers: bound must be ≥ 0");
  const relative = options.mode === "relative";
  const changes: JitterChange[] = [];
  const out = rows.map((r, row) =>
    Object.fromEntries(
      Object.entries(r).map(([field, v]) => {
        if (typeof v !== "number" || (options.fields && !options.fields.includes(field))) return [field, v];
        const limit = relative ? options.bound * Math.abs(v) : options.bound;
        const shifted = v + (rng.next() * 2 - 1) * limit;
        // Rounding v + delta can overshoot when the bound is below one ulp of v; then keep v.
        const to = Math.abs(shifted - v) <= limit ? shifted : v;
        changes.push({ row, field, from: v, to });
        return [field, to];
      }),
    ),
  );
  return { rows: out, changes };
}

export interface DuplicateResult {
  rows: Row[];
  /** Output positions that are extra copies, and which input row each copies. */
  duplicates: { index: number; of: number }[];
}

/** Insert `count` copies of random rows, each right after its source or at a random later place. */
export function duplicateRows(rng: Rng, rows: readonly Row[], count: number): DuplicateResult {
  if (rows.length === 0 || count <= 0) return { rows: rows.map((r) => ({ ...r })), duplicates: [] };
  const entries: { row: Row; of: number; dup: boolean }[] = rows.map((r, i) => ({
    row: r,
    of: i,
    dup: false,
  }));
  for (let k = 0; k < count; k++) {
    const of = rng.int(0, rows.length - 1);
    const at = rng.int(0, entries.length);
    entries.splice(at, 0, { row: rows[of] as Row, of, dup: true });
  }
  const duplicates: { index: number; of: number }[] = [];
  entries.forEach((e, index) => {
    if (e.dup) duplicates.push({ index, of: e.of });
  });
  return { rows: entries.map((e) => ({ ...e.row })), duplicates };
}

/** Remove the rows listed by `duplicateRows`. */
export function removeDuplicates(rows: readonly Row[], duplicates: readonly { index: number }[]): Row[] {
  const drop = new Set(duplicates.map((d) => d.index));
  return rows.filter((_, i) => !drop.has(i));
}

export type JunkKind = "comment" | "blank" | "garbage";
export const JUNK_KINDS = ["comment", "blank", "garbage"] as const;

export interface JunkOptions {
  count: number;
  kinds?: readonly JunkKind[];
  commentPrefix?: string;
  /** Leading lines (e.g. a CSV header) that junk is never inserted before or between. */
  keepFirst?: number;
}

export interface JunkLine {
  /** Line index in the output (0-based). */
  line: number;
  kind: JunkKind;
  text: string;
}

const GARBAGE = ["~~~ %s ~~~", "<<<CORRUPT %s>>>", "%s%s%s", "ERROR: record %s unreadable", "\\x%s"];

function junkText(rng: Rng, kind: JunkKind, prefix: string): string {
  const tag = rng.nextU32().toString(36);
  if (kind === "blank") return rng.pick(["", " ", "\t"]);
  if (kind === "comment")
    return `${prefix} ${rng.pick(["generated", "note", "exported at", "checksum"])} ${tag}`;
  return rng.pick(GARBAGE).replaceAll("%s", tag);
}

/**
 * Insert junk lines between lines of `text` (never inside the first keepFirst lines and never after
 * the final newline). Line numbers index `text.split("\n")` of the output, so deleting the reported
 * lines gives back the input exactly.
 */
export function injectJunkLines(
  rng: Rng,
  text: string,
  options: JunkOptions,
): { text: string; inserted: JunkLine[] } {
  const kinds = options.kinds ?? JUNK_KINDS;
  const prefix = options.commentPrefix ?? "#";
  const tagged: { text: string; junk: JunkKind | null }[] = text
    .split("\n")
    .map((l) => ({ text: l, junk: null }));
  // With a final newline the last split element is the empty remainder after it; junk goes before it.
  const content = text.endsWith("\n") ? tagged.length - 1 : tagged.length;
  const keep = Math.min(options.keepFirst ?? 0, content);
  let last = content;
  for (let k = 0; k < options.count; k++) {
    const kind = rng.pick(kinds);
    const at = rng.int(keep, last);
    tagged.splice(at, 0, { text: junkText(rng, kind, prefix), junk: kind });
    last++;
  }
  const inserted: JunkLine[] = [];
  tagged.forEach((t, line) => {
    if (t.junk !== null) inserted.push({ line, kind: t.junk, text: t.text });
  });
  return { text: tagged.map((t) => t.text).join("\n"), inserted };
}

/** Delete the lines reported by `injectJunkLines`. */
export function removeJunkLines(text: string, inserted: readonly { line: number }[]): string {
  const drop = new Set(inserted.map((j) => j.line));
  return text
    .split("\n")
    .filter((_, i) => !drop.has(i))
    .join("\n");
}
