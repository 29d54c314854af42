import type { Rng } from "../core/rng.js";
import type { PerturbationId } from "./catalog.js";
import { renameFields } from "./fields.js";
import { injectMissing } from "./missing.js";
import { duplicateRows, jitterNumbers } from "./noise.js";
import { shuffleKeys, shuffleWithOrder } from "./reorder.js";
import { formatInstant, parseInstant, TIMESTAMP_FORMATS, zoneName } from "./timestamps.js";
import type { Cell, Row } from "./types.js";
import { changeUnits, quantityOf, unitsOf } from "./units.js";

export interface RecordStageOptions {
  /** Unit of numeric fields (by original name) that unit-change may convert. */
  units?: Record<string, string>;
  /** Fields (by original name) holding instants as epoch-ms numbers or ISO 8601 text. */
  timestamps?: readonly string[];
  missingRate?: number;
  /** Relative bound for numeric-jitter. */
  jitterBound?: number;
}

/** What one perturbation did: `report` holds everything needed to check or undo it. */
export interface AppliedPerturbation {
  id: PerturbationId;
  report: Record<string, unknown>;
  note: string;
}

export interface RecordState {
  rows: Row[];
  /** current field name → original field name */
  origin: Map<string, string>;
}

const ZONES = [-480, -300, -180, 0, 60, 330, 345, 540, 600] as const;

function currentFieldsFor(state: RecordState, originals: readonly string[]): string[] {
  return [...state.origin].filter(([, o]) => originals.includes(o)).map(([c]) => c);
}

/** Apply one record-level perturbation in place; returns null when it had nothing to act on. */
export function applyRecordPerturbation(
  rng: Rng,
  id: PerturbationId,
  state: RecordState,
  options: RecordStageOptions,
): AppliedPerturbation | null {
  switch (id) {
    case "rename-fields": {
      const { rows, mapping } = renameFields(rng, state.rows);
      state.rows = rows;
      state.origin = new Map(
        Object.entries(mapping).map(([now, before]) => [now, state.origin.get(before) ?? before]),
      );
      return { id, report: { mapping }, note: `fields renamed (new → old): ${JSON.stringify(mapping)}` };
    }
    case "missing-values": {
      const rate = options.missingRate ?? 0.1;
      const { rows, removed } = injectMissing(rng, state.rows, { rate });
      state.rows = rows;
      return { id, report: { rate, removed }, note: `${removed.length} values removed (rate ${rate})` };
    }
    case "numeric-jitter": {
      const bound = options.jitterBound ?? 1e-6;
      const skip = new Set(currentFieldsFor(state, options.timestamps ?? []));
      const fields = [...state.origin.keys()].filter((f) => !skip.has(f));
      const { rows, changes } = jitterNumbers(rng, state.rows, { bound, mode: "relative", fields });
      state.rows = rows;
      return {
        id,
        report: { bound, mode: "relative", changed: changes.length },
        note: `numbers jittered by ≤ ${bound} relative`,
      };
    }
    case "duplicate-rows": {
      const count = Math.max(1, Math.round(state.rows.length * 0.05));
      const { rows, duplicates } = duplicateRows(rng, state.rows, count);
      state.rows = rows;
      return { id, report: { duplicates }, note: `${duplicates.length} duplicate rows inserted` };
    }
    case "reorder-rows": {
      const { items, order } = shuffleWithOrder(rng, state.rows);
      state.rows = items;
      return { id, report: { order }, note: "rows shuffled" };
    }
    case "reorder-keys":
      state.rows = shuffleKeys(rng, state.rows);
      return { id, report: {}, note: "keys shuffled within each record" };
    case "unit-change": {
      const units = options.units ?? {};
      const candidates = currentFieldsFor(state, Object.keys(units));
      if (candidates.length === 0) return null;
      const field = rng.pick(candidates);
      const from = units[state.origin.get(field) ?? field] as string;
      const to = rng.pick(unitsOf(quantityOf(from)).filter((u) => u !== from));
      const label = rng.pick(["suffix", "column"] as const);
      const { rows, change } = changeUnits(state.rows, { field, from, to, label });
      state.rows = rows;
      const original = state.origin.get(field) ?? field;
      state.origin.delete(field);
      state.origin.set(change.newField, original);
      if (label === "column") state.origin.set(`${field}_unit`, `${original}_unit`);
      return { id, report: { ...change }, note: `${field} converted from ${from} to ${to} (${label})` };
    }
    case "timestamp-format": {
      const fields = currentFieldsFor(state, options.timestamps ?? []);
      if (fields.length === 0) return null;
      const format = rng.pick(TIMESTAMP_FORMATS);
      const offset = rng.pick(ZONES);
      const convert = (v: Cell): Cell => {
        if (v === null || typeof v === "boolean") return v;
        let ms: number;
        try {
          ms = typeof v === "number" ? v : parseInstant(v, { format: "epoch-ms" });
        } catch {
          return v;
        }
        const text = formatInstant(ms, format, offset);
        return format.startsWith("epoch") ? Number(text) : text;
      };
      state.rows = state.rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fields.includes(k) ? convert(v) : v])),
      );
      const zone = zoneName(offset);
      return {
        id,
        report: { fields, format, zone, offsetMinutes: offset },
        note: `timestamps in ${format}, zone ${zone}`,
      };
    }
    default:
      return null;
  }
}
