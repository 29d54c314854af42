import type { Rng } from "../core/rng.js";
import { type Cell, type Row, StressError, sampleIndices } from "./types.js";

/** How a removed value appears: JSON null, "", the text "NA", or the key left out altogether. */
export type MissingMarker = "null" | "empty" | "NA" | "absent";
export const MISSING_MARKERS = ["null", "empty", "NA", "absent"] as const;

export interface MissingOptions {
  /** Fraction of eligible cells to remove; the count is round(rate × eligible), exactly. */
  rate: number;
  markers?: readonly MissingMarker[];
  /** Only these fields (default: all). */
  fields?: readonly string[];
}

export interface RemovedCell {
  row: number;
  field: string;
  original: Cell;
  marker: MissingMarker;
}

export interface MissingResult {
  rows: Row[];
  removed: RemovedCell[];
}

/** Cells already null are not eligible, so every entry in `removed` is a real loss. */
export function injectMissing(rng: Rng, rows: readonly Row[], options: MissingOptions): MissingResult {
  if (!(options.rate >= 0 && options.rate <= 1))
    throw new StressError("injectMissing: rate must be in [0, 1]");
  const markers = options.markers ?? MISSING_MARKERS;
  if (markers.length === 0) throw new StressError("injectMissing: markers is empty");
  const eligible: { row: number; field: string }[] = [];
  rows.forEach((r, row) => {
    for (const [field, v] of Object.entries(r)) {
      if (v !== null && (options.fields === undefined || options.fields.includes(field))) {
        eligible.push({ row, field });
      }
    }
  });
  const picked = sampleIndices(rng, eligible.length, Math.round(options.rate * eligible.length));
  const out = rows.map((r) => ({ ...r }));
  const removed: RemovedCell[] = [];
  for (const i of picked) {
    const { row, field } = eligible[i] as { row: number; field: string };
    const target = out[row] as Row;
    const marker = rng.pick(markers);
    removed.push({ row, field, original: target[field] as Cell, marker });
    if (marker === "absent") delete target[field];
    else target[field] = marker === "null" ? null : marker === "empty" ? "" : "NA";
  }
  return { rows: out, removed };
}

/** Put back what `injectMissing` removed (key order is not restored; values are). */
export function restoreMissing(rows: readonly Row[], removed: readonly RemovedCell[]): Row[] {
  const out = rows.map((r) => ({ ...r }));
  for (const c of removed) {
    const target = out[c.row];
    if (target === undefined) throw new StressError(`restoreMissing: row ${c.row} does not exist`);
    target[c.field] = c.original;
  }
  return out;
}

/** The conventional test graders use: null, absent, "", "NA", "N/A", "null", "NaN" (case-insensitive). */
export function isMissing(value: Cell | undefined): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value !== "string") return false;
  return ["", "na", "n/a", "null", "nan"].includes(value.trim().toLowerCase());
}
