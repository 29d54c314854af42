import { z } from "zod";
import { InputError } from "../core/errors.js";
import { OUTCOMES } from "../core/trial-result.js";
import { readCsv } from "./csv-reader.js";
import { readJsonRows } from "./json-rows.js";
import { decimalsOf, type PrintedRate } from "./recover-counts.js";
import type { AnalysisTrial } from "./summary-types.js";

/** CSV gives strings; JSON gives typed values. Both are normalised before validation. */
const blankToUndefined = (v: unknown): unknown => (typeof v === "string" && v.trim() === "" ? undefined : v);
const toNumber = (v: unknown): unknown => {
  const b = blankToUndefined(v);
  return typeof b === "string" ? Number(b.trim()) : b;
};
/** "28.3%" means 0.283; a bare number is already a fraction. */
const toFraction = (v: unknown): unknown => {
  const b = blankToUndefined(v);
  if (typeof b !== "string") return b;
  const s = b.trim();
  return s.endsWith("%") ? Number(s.slice(0, -1)) / 100 : Number(s);
};
const toBool = (v: unknown): unknown => {
  const b = blankToUndefined(v);
  if (typeof b !== "string") return b;
  const s = b.trim().toLowerCase();
  if (["true", "1", "yes", "y"].includes(s)) return true;
  if (["false", "0", "no", "n"].includes(s)) return false;
  return b;
};

const fraction = z.preprocess(toFraction, z.number().min(0).max(1, "must be ≤ 1 (write percentages with %)"));
const nonNeg = z.preprocess(toNumber, z.number().nonnegative());
const nonNegInt = z.preprocess(toNumber, z.number().int().nonnegative());
const text = z.preprocess(blankToUndefined, z.string().trim().min(1));

export const externalTrialRowSchema = z.object({
  task: text,
  agent: text.default("external"),
  model: text.optional(),
  attempt: nonNegInt.optional(),
  reward: fraction.optional(),
  outcome: z.preprocess(blankToUndefined, z.enum(OUTCOMES).default("completed")),
  self_terminated: z.preprocess(toBool, z.boolean().default(false)),
  category: text.default("uncategorized"),
  cost_usd: nonNeg.default(0),
  turns: nonNeg.default(0),
  input_tokens: nonNeg.default(0),
  output_tokens: nonNeg.default(0),
  subtasks: z
    .array(
      z.object({
        id: z.string().min(1),
        weight: z.number().positive().default(1),
        score: z.number().min(0).max(1),
      }),
    )
    .default([]),
});

export const externalSummaryRowSchema = z.object({
  model: text,
  agent: text.default("external"),
  n: z.preprocess(toNumber, z.number().int().positive()),
  pass_095: fraction.optional(),
  pass_100: fraction.optional(),
  mean_reward: fraction.optional(),
  cost_usd: nonNeg.optional(),
  turns: nonNeg.optional(),
  tokens: nonNeg.optional(),
});
/** A per-model row, with each rate as the file printed it (for recovering whole counts). */
export type ExternalSummaryRow = z.infer<typeof externalSummaryRowSchema> & {
  printed?: Partial<Record<RateColumn, PrintedRate>>;
};

const RATE_COLUMNS = ["pass_095", "pass_100"] as const;
type RateColumn = (typeof RATE_COLUMNS)[number];

/** Column names of published tables that mean the same as ours (after `_pct` is removed). */
const ALIASES: Record<string, string> = {
  pass_at_r095: "pass_095",
  pass_at_r100: "pass_100",
  pass_at_1_r095: "pass_095",
  pass_at_1_r100: "pass_100",
  tasks: "n",
};

export type ExternalResults =
  | { kind: "trials"; file: string; trials: AnalysisTrial[] }
  | { kind: "summary"; file: string; rows: ExternalSummaryRow[] };

interface RawRow {
  line: number;
  col: number;
  values: Record<string, unknown>;
  /** Column of each field by name (CSV); JSON rows point at the row's start. */
  cols: Record<string, number>;
  /** Every column the row names, blank or not. */
  columns: string[];
  /** Rate cells as written: text and whether the cell is in percent. */
  printed: Partial<Record<string, { text: string; pct: boolean }>>;
}

/**
 * Reads per-trial or per-model results written by another harness (CSV, JSON array or JSON
 * Lines; see docs/reports.md). The kind is decided by the columns: `task` means per-trial rows,
 * `model` and `n` without `task` mean per-model summary rows.
 */
export function parseExternalResults(content: string, file: string): ExternalResults {
  const rows = isJson(content, file) ? jsonRaw(content, file) : csvRaw(content, file);
  if (rows.length === 0) throw new InputError(file, 1, undefined, "no result rows");
  const first = rows[0] as RawRow;
  const columns = new Set(first.columns);
  if (columns.has("task")) {
    const attempts = new Map<string, number>();
    const trials = rows.map((r) => toTrial(validate(externalTrialRowSchema, r, file), r, file, attempts));
    return { kind: "trials", file, trials };
  }
  if (columns.has("model") && columns.has("n")) {
    return {
      kind: "summary",
      file,
      rows: withPrinted(
        rows,
        rows.map((r) => validate(externalSummaryRowSchema, r, file)),
      ),
    };
  }
  throw new InputError(
    file,
    first.line,
    undefined,
    "expected a `task` column (per-trial rows) or `model` and `n` (per-model rows)",
  );
}

function isJson(content: string, file: string): boolean {
  if (/\.(json|jsonl|ndjson)$/i.test(file)) return true;
  if (/\.csv$/i.test(file)) return false;
  const c = content.trimStart()[0];
  return c === "[" || c === "{";
}

/** `pass_095_pct` and friends hold percentages; they are folded into the fraction columns. */
function normaliseName(name: string): { name: string; pct: boolean } {
  const n = name.trim().toLowerCase();
  const { base, pct } = n.endsWith("_pct") ? { base: n.slice(0, -4), pct: true } : { base: n, pct: false };
  return { name: ALIASES[base] ?? base, pct };
}

/**
 * The printed precision of a rate is the table's, not the cell's: a JSON `0` in a column of
 * `4.3`s was printed `0.0`. So decimals are the most any row of the column shows.
 */
function withPrinted(raw: readonly RawRow[], rows: ExternalSummaryRow[]): ExternalSummaryRow[] {
  const decimals: Partial<Record<RateColumn, number>> = {};
  for (const r of raw) {
    for (const c of RATE_COLUMNS) {
      const p = r.printed[c];
      if (p !== undefined) decimals[c] = Math.max(decimals[c] ?? 0, decimalsOf(p.text));
    }
  }
  return rows.map((row, i) => {
    const printed: Partial<Record<RateColumn, PrintedRate>> = {};
    for (const c of RATE_COLUMNS) {
      const p = raw[i]?.printed[c];
      if (p === undefined || row[c] === undefined) continue;
      const pct = p.pct || p.text.trim().endsWith("%");
      printed[c] = {
        value: Number(p.text.trim().replace(/%$/, "")),
        decimals: decimals[c] ?? 0,
        unit: pct ? "pct" : "fraction",
      };
    }
    return { ...row, printed };
  });
}

/** Blank cells and JSON nulls mean "not given", so defaults apply to them. */
function putValue(
  values: Record<string, unknown>,
  rawName: string,
  value: unknown,
  printed?: RawRow["printed"],
): string {
  const { name, pct } = normaliseName(rawName);
  if (value === null || value === undefined || (typeof value === "string" && value.trim() === ""))
    return name;
  if (printed !== undefined && (typeof value === "number" || typeof value === "string")) {
    printed[name] = { text: String(value), pct };
  }
  if (pct && (typeof value === "number" || (typeof value === "string" && value.trim() !== ""))) {
    const v = typeof value === "number" ? value : Number(value.trim().replace(/%$/, ""));
    values[name] = v / 100;
  } else values[name] = value;
  return name;
}

function csvRaw(content: string, file: string): RawRow[] {
  const [header, ...records] = readCsv(content, file);
  if (header === undefined) return [];
  return records.map((rec) => {
    if (rec.fields.length !== header.fields.length) {
      throw new InputError(
        file,
        rec.line,
        undefined,
        `column 1: expected ${header.fields.length} fields as in the header, got ${rec.fields.length}`,
      );
    }
    const values: Record<string, unknown> = {};
    const printed: RawRow["printed"] = {};
    const cols: Record<string, number> = {};
    const subtasks: { id: string; weight: number; score: unknown }[] = [];
    header.fields.forEach((h, i) => {
      const f = rec.fields[i];
      if (f === undefined) return;
      const sub = /^subtask\.(.+)$/i.exec(h.value.trim());
      if (sub?.[1] !== undefined) {
        if (f.value.trim() !== "") subtasks.push({ id: sub[1], weight: 1, score: toNumber(f.value) });
        cols.subtasks ??= f.col;
        return;
      }
      cols[putValue(values, h.value, f.value, printed)] = f.col;
    });
    if (subtasks.length > 0) values.subtasks = subtasks;
    return { line: rec.line, col: 1, values, cols, columns: Object.keys(cols), printed };
  });
}

function jsonRaw(content: string, file: string): RawRow[] {
  return readJsonRows(content, file).map((row) => {
    if (row.value === null || typeof row.value !== "object" || Array.isArray(row.value)) {
      throw new InputError(file, row.line, undefined, `column ${row.col}: expected an object per row`);
    }
    const values: Record<string, unknown> = {};
    const printed: RawRow["printed"] = {};
    const columns = Object.entries(row.value).map(([k, v]) => putValue(values, k, v, printed));
    return { line: row.line, col: row.col, values, cols: {}, columns, printed };
  });
}

function validate<S extends z.ZodType>(schema: S, row: RawRow, file: string): z.infer<S> {
  const parsed = schema.safeParse(row.values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[0] ?? "");
  const col = row.cols[field] ?? row.col;
  const got = row.values[field];
  const shown = got === undefined ? "missing" : `got ${JSON.stringify(got)}`;
  throw new InputError(
    file,
    row.line,
    field,
    `column ${col} (${field}): ${issue?.message ?? "invalid"} (${shown})`,
  );
}

function toTrial(
  r: z.infer<typeof externalTrialRowSchema>,
  raw: RawRow,
  file: string,
  attempts: Map<string, number>,
): AnalysisTrial {
  const excluded = r.outcome === "grading_error" || r.outcome === "infra_error";
  if (r.reward === undefined && !excluded) {
    const col = raw.cols.reward ?? raw.col;
    throw new InputError(
      file,
      raw.line,
      "reward",
      `column ${col} (reward): required unless outcome is grading_error or infra_error`,
    );
  }
  const model = r.model ?? null;
  const id = `${r.agent}\u0000${model}\u0000${r.task}`;
  const seen = attempts.get(id) ?? 0;
  attempts.set(id, seen + 1);
  return {
    task: { name: r.task, category: r.category },
    agent: r.agent,
    model,
    attempt: r.attempt ?? seen,
    outcome: r.outcome,
    self_terminated: r.self_terminated,
    // A grading or infrastructure error has no reward, whatever the row says beside it.
    reward: excluded ? null : (r.reward ?? null),
    subtasks: r.subtasks,
    usage: {
      input_tokens: r.input_tokens,
      output_tokens: r.output_tokens,
      cost_usd: r.cost_usd,
      turns: r.turns,
    },
  };
}
