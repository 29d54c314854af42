import { type Cell, type Row, StressError } from "./types.js";

/** A raw CSV cell: null is an unquoted empty field, "" is a quoted empty one (`""`). */
export type CsvCell = string | null;
export type RecordFormat = "csv" | "tsv" | "json" | "jsonl";
export const RECORD_FORMATS = ["csv", "tsv", "json", "jsonl"] as const;

export interface CsvOptions {
  delimiter?: string;
  newline?: "\n" | "\r\n";
}

const NUMBER_RE = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function needsQuotes(cell: string, delimiter: string): boolean {
  return cell === "" || cell.includes(delimiter) || /["\r\n]/.test(cell);
}

function quote(cell: string): string {
  return `"${cell.replaceAll('"', '""')}"`;
}

/** Every row ends with the newline, so an empty table is "" and a table of one null cell is "\n". */
export function toCsv(rows: readonly (readonly CsvCell[])[], options: CsvOptions = {}): string {
  const delimiter = options.delimiter ?? ",";
  const newline = options.newline ?? "\n";
  let out = "";
  for (const row of rows) {
    if (row.length === 0) throw new StressError("toCsv: a row needs at least one cell");
    const cells = row.map((c) => (c === null ? "" : needsQuotes(c, delimiter) ? quote(c) : c));
    out += cells.join(delimiter) + newline;
  }
  return out;
}

interface RawCell {
  value: string;
  quoted: boolean;
}

function parseRaw(text: string, delimiter: string): RawCell[][] {
  const rows: RawCell[][] = [];
  let row: RawCell[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let value = "";
    let quoted = false;
    if (text[i] === '"') {
      quoted = true;
      i++;
      for (;;) {
        if (i >= n) throw new StressError("parseCsv: unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i];
        i++;
      }
    }
    // Unquoted text (or stray text after a closing quote) runs to the delimiter or the line end.
    while (i < n && !text.startsWith(delimiter, i) && text[i] !== "\n" && text[i] !== "\r") {
      value += text[i];
      i++;
    }
    row.push({ value, quoted });
    if (i >= n) break;
    if (text.startsWith(delimiter, i)) {
      i += delimiter.length;
      if (i >= n) row.push({ value: "", quoted: false });
      continue;
    }
    i += text[i] === "\r" && text[i + 1] === "\n" ? 2 : 1;
    rows.push(row);
    row = [];
  }
  if (row.length > 0) rows.push(row);
  return rows;
}

export function parseCsv(text: string, options: Pick<CsvOptions, "delimiter"> = {}): CsvCell[][] {
  return parseRaw(text, options.delimiter ?? ",").map((r) =>
    r.map((c) => (c.value === "" && !c.quoted ? null : c.value)),
  );
}

/** The writer quotes any string that would otherwise read back as a number, boolean or null. */
function cellToCsv(cell: Cell | undefined, delimiter: string): string {
  if (cell === null || cell === undefined) return "";
  if (typeof cell === "number") {
    if (!Number.isFinite(cell)) throw new StressError(`recordsToCsv: non-finite number ${cell}`);
    return String(cell);
  }
  if (typeof cell === "boolean") return String(cell);
  const ambiguous = NUMBER_RE.test(cell) || cell === "true" || cell === "false";
  return ambiguous || needsQuotes(cell, delimiter) ? quote(cell) : cell;
}

function inferCell(raw: RawCell): Cell {
  if (raw.quoted) return raw.value;
  if (raw.value === "") return null;
  if (raw.value === "true") return true;
  if (raw.value === "false") return false;
  if (NUMBER_RE.test(raw.value)) return Number(raw.value);
  return raw.value;
}

/** Columns in first-seen order over all records. */
export function columnsOf(records: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/** Absent keys are written as empty fields, so they read back as null. */
export function recordsToCsv(
  records: readonly Row[],
  options: CsvOptions & { columns?: string[] } = {},
): string {
  const delimiter = options.delimiter ?? ",";
  const newline = options.newline ?? "\n";
  const columns = options.columns ?? columnsOf(records);
  if (columns.length === 0) return "";
  const header = columns.map((c) => (needsQuotes(c, delimiter) ? quote(c) : c)).join(delimiter);
  const lines = records.map((r) => columns.map((c) => cellToCsv(r[c], delimiter)).join(delimiter));
  return [header, ...lines].map((l) => l + newline).join("");
}

export function csvToRecords(text: string, options: Pick<CsvOptions, "delimiter"> = {}): Row[] {
  const rows = parseRaw(text, options.delimiter ?? ",");
  const header = rows[0];
  if (header === undefined) return [];
  const columns = header.map((c) => c.value);
  return rows.slice(1).map((r, i) => {
    if (r.length !== columns.length) {
      throw new StressError(`csv row ${i + 2}: ${r.length} fields, header has ${columns.length}`);
    }
    return Object.fromEntries(columns.map((c, j) => [c, inferCell(r[j] as RawCell)]));
  });
}

function checkRow(value: unknown, where: string): Row {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new StressError(`${where}: expected an object`);
  }
  for (const [k, v] of Object.entries(value)) {
    const ok = v === null || ["string", "number", "boolean"].includes(typeof v);
    if (!ok) throw new StressError(`${where}: field ${k}: expected a string, number, boolean or null`);
  }
  return value as Row;
}

export function recordsToJson(records: readonly Row[], indent = 0): string {
  return `${JSON.stringify(records, null, indent)}\n`;
}

export function jsonToRecords(text: string): Row[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new StressError("json: expected an array of records");
  return parsed.map((r, i) => checkRow(r, `json record ${i}`));
}

export function recordsToJsonl(records: readonly Row[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join("");
}

/** Blank lines are skipped; anything else that is not a JSON object is an error naming its line. */
export function jsonlToRecords(text: string): Row[] {
  const out: Row[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new StressError(`jsonl line ${i + 1}: not JSON`);
    }
    out.push(checkRow(parsed, `jsonl line ${i + 1}`));
  });
  return out;
}

export function serializeRecords(records: readonly Row[], format: RecordFormat): string {
  switch (format) {
    case "csv":
      return recordsToCsv(records);
    case "tsv":
      return recordsToCsv(records, { delimiter: "\t" });
    case "json":
      return recordsToJson(records, 2);
    case "jsonl":
      return recordsToJsonl(records);
  }
}

export function parseRecords(text: string, format: RecordFormat): Row[] {
  switch (format) {
    case "csv":
      return csvToRecords(text);
    case "tsv":
      return csvToRecords(text, { delimiter: "\t" });
    case "json":
      return jsonToRecords(text);
    case "jsonl":
      return jsonlToRecords(text);
  }
}
