import { parseDelimited } from "../../facts.js";
import { utf8 } from "../../file-tree.js";
import { utf8Text } from "./common.js";

/** Parsed CSV rows (header first), or undefined when the bytes are not strict UTF-8 CSV. */
export function readCsv(bytes: Uint8Array): string[][] | undefined {
  const text = utf8Text(bytes);
  if (text === undefined) return undefined;
  try {
    return parseDelimited(text);
  } catch {
    return undefined;
  }
}

/** A CSV with a header of distinct names and every row as wide as the header. */
export interface CsvTable {
  header: string[];
  rows: string[][];
}

export function readCsvTable(bytes: Uint8Array): CsvTable | undefined {
  const all = readCsv(bytes);
  const header = all?.[0];
  if (all === undefined || header === undefined || new Set(header).size !== header.length) return undefined;
  const rows = all.slice(1);
  if (!rows.every((r) => r.length === header.length)) return undefined;
  return { header, rows };
}

function csvField(f: string, alone: boolean): string {
  // Quoting a lone empty field keeps the record from reading as a blank line; a leading U+FEFF
  // would otherwise be taken for a byte-order mark.
  if ((alone && f === "") || /[",\r\n]/.test(f) || f.startsWith("\uFEFF"))
    return `"${f.replaceAll('"', '""')}"`;
  return f;
}

/** CSV text with minimal quoting and \n line ends; parseDelimited reads back exactly `rows`. */
export function writeCsv(rows: readonly (readonly string[])[]): Uint8Array {
  return utf8.encode(rows.map((r) => `${r.map((f) => csvField(f, r.length === 1)).join(",")}\n`).join(""));
}

export type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The non-blank lines of a JSONL file, each with its parsed object; undefined unless every line is an object. */
export function readJsonlObjects(bytes: Uint8Array): { line: string; value: JsonObject }[] | undefined {
  const text = utf8Text(bytes);
  if (text === undefined) return undefined;
  const out: { line: string; value: JsonObject }[] = [];
  for (const raw of text.replace(/^\uFEFF/, "").split(/\r?\n|\r/)) {
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
    if (!isObject(value)) return undefined;
    out.push({ line: raw, value });
  }
  return out;
}

/** A JSON object line with keys in exactly the given order (JSON.stringify would move integer-like keys first). */
export function objectLine(keys: readonly string[], valueText: (k: string, i: number) => string): string {
  return `{${keys.map((k, i) => `${JSON.stringify(k)}:${valueText(k, i)}`).join(",")}}`;
}

/** JSONL whose records all have the same key set (in any order); keys are the first record's. */
export interface JsonlTable {
  keys: string[];
  records: JsonObject[];
  /** Every value is a string, so cells can hold the text itself rather than its JSON encoding. */
  allStrings: boolean;
}

export function readJsonlTable(bytes: Uint8Array): JsonlTable | undefined {
  const lines = readJsonlObjects(bytes);
  const first = lines?.[0];
  if (lines === undefined || first === undefined) return undefined;
  const keys = Object.keys(first.value);
  if (keys.length === 0) return undefined;
  const keySet = new Set(keys);
  const records = lines.map((l) => l.value);
  for (const r of records) {
    const ks = Object.keys(r);
    if (ks.length !== keys.length || !ks.every((k) => keySet.has(k))) return undefined;
  }
  const allStrings = records.every((r) => keys.every((k) => typeof r[k] === "string"));
  return { keys, records, allStrings };
}

/** Names that can be SQLite columns side by side: non-empty and distinct ignoring ASCII case. */
export function sqliteSafeNames(names: readonly string[]): boolean {
  const folded = names.map((n) => n.replace(/[A-Z]/g, (c) => c.toLowerCase()));
  return names.every((n) => n !== "" && !n.includes("\0")) && new Set(folded).size === names.length;
}

/** The Python (stdlib) lines shared by restore scripts: CSV writing that quotes \r and \n. */
export const PY_CSV_WRITER = 'csv.writer(out, lineterminator="\\r\\n")';
