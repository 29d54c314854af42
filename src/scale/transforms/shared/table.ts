import { canonicalDigest } from "../../facts.js";
import { type JsonStyle, jsonObjectText, jsonText } from "./json-style.js";
import { extension } from "./names.js";

export type TableFormat = "csv" | "tsv" | "jsonl";

/** How a table file is laid out, enough to write it back byte for byte. */
export interface TableDialect {
  format: TableFormat;
  eol: "\n" | "\r\n";
  finalEol: boolean;
  /** JSON-lines only. */
  json?: JsonStyle;
}

/**
 * A rectangular table: a header and rows of cells. CSV/TSV cells are strings; JSON-lines cells
 * are parsed JSON values, and every line is an object with the header's keys in the same order.
 */
export interface Table {
  dialect: TableDialect;
  header: string[];
  rows: unknown[][];
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function tableFormat(path: string): TableFormat | undefined {
  const ext = extension(path);
  return ext === "csv" || ext === "tsv" || ext === "jsonl" ? ext : undefined;
}

function decode(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

function detectEol(text: string): "\n" | "\r\n" {
  const i = text.indexOf("\n");
  return i > 0 && text[i - 1] === "\r" ? "\r\n" : "\n";
}

/** Parses strict RFC 4180 records; undefined on a stray quote or bare CR. */
function parseDelimited(text: string, delim: string): string[][] | undefined {
  const records: string[][] = [];
  let fields: string[] = [];
  let i = 0;
  const n = text.length;
  for (;;) {
    let field = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= n) return undefined;
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else field += text[i++];
      }
    } else {
      while (i < n && text[i] !== delim && text[i] !== "\n" && text[i] !== "\r") {
        if (text[i] === '"') return undefined;
        field += text[i++];
      }
    }
    fields.push(field);
    if (i >= n) {
      records.push(fields);
      return records;
    }
    if (text[i] === delim) {
      i++;
      continue;
    }
    if (text[i] === "\r") {
      if (text[i + 1] !== "\n") return undefined;
      i++;
    }
    if (text[i] !== "\n") return undefined;
    i++;
    records.push(fields);
    fields = [];
    if (i >= n) return records;
  }
}

function csvField(f: string, delim: string, alone: boolean): string {
  if ((alone && f === "") || f.includes(delim) || /["\r\n]/.test(f)) return `"${f.replaceAll('"', '""')}"`;
  return f;
}

function joinLines(lines: string[], d: TableDialect): string {
  return lines.join(d.eol) + (d.finalEol ? d.eol : "");
}

/** Cell text as written in the file (CSV cell, or JSON text in the table's style). */
export function cellText(t: Table, v: unknown): string {
  return t.dialect.format === "jsonl"
    ? jsonText(v, t.dialect.json ?? { spaced: false, ascii: false })
    : String(v);
}

export function serializeTable(t: Table): Uint8Array {
  const d = t.dialect;
  let lines: string[];
  if (d.format === "jsonl") {
    const style = d.json ?? { spaced: false, ascii: false };
    lines = t.rows.map((row) =>
      jsonObjectText(
        t.header.map((h, j) => [h, row[j]] as const),
        style,
      ),
    );
  } else {
    const delim = d.format === "csv" ? "," : "\t";
    const line = (cells: readonly unknown[]): string =>
      cells.map((c) => csvField(String(c), delim, cells.length === 1)).join(delim);
    lines = [line(t.header), ...t.rows.map(line)];
  }
  return new TextEncoder().encode(joinLines(lines, d));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

function parseJsonl(text: string, eol: "\n" | "\r\n"): Omit<Table, "dialect"> | undefined {
  const lines = text.split(eol);
  if (lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 0) return undefined;
  let header: string[] | undefined;
  const rows: unknown[][] = [];
  for (const line of lines) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return undefined;
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    const keys = Object.keys(v);
    if (header === undefined) header = keys;
    else if (keys.length !== header.length || keys.some((k, j) => k !== header?.[j])) return undefined;
    rows.push(Object.values(v));
  }
  return header === undefined || header.length === 0 ? undefined : { header, rows };
}

/** True when both texts hold the same table as ground facts compare it (rows in canonical form). */
function sameRows(path: string, a: Uint8Array, b: Uint8Array): boolean {
  try {
    return canonicalDigest(path, a, "rows") === canonicalDigest(path, b, "rows");
  } catch {
    return false;
  }
}

/**
 * Parses a CSV, TSV or JSON-lines table, or returns undefined unless writing the parsed table
 * back gives the same bytes or, failing that (other quoting, other JSON spacing), the same rows
 * as ground facts compare them: transforms only take tables they can restore.
 */
export function parseTable(path: string, bytes: Uint8Array): Table | undefined {
  const format = tableFormat(path);
  const text = format === undefined ? undefined : decode(bytes);
  if (format === undefined || text === undefined || text === "") return undefined;
  const eol = detectEol(text);
  const finalEol = text.endsWith(eol);
  if (format === "jsonl") {
    const parsed = parseJsonl(text, eol);
    if (parsed === undefined) return undefined;
    for (const spaced of [false, true]) {
      for (const ascii of [false, true]) {
        const t: Table = { dialect: { format, eol, finalEol, json: { spaced, ascii } }, ...parsed };
        if (sameBytes(serializeTable(t), bytes)) return t;
      }
    }
    // Not in one of the two layouts: written back in the nearer one, equal as rows.
    const first = text.split(eol, 1)[0] ?? "";
    const pureAscii = ![...text].some((c) => c.charCodeAt(0) > 0x7f);
    const json = { spaced: /^\{"(?:[^"\\]|\\.)*": /.test(first), ascii: pureAscii && text.includes("\\u") };
    const t: Table = { dialect: { format, eol, finalEol, json }, ...parsed };
    return sameRows(path, serializeTable(t), bytes) ? t : undefined;
  }
  const body = finalEol ? text.slice(0, -eol.length) : text;
  const records = body === "" ? undefined : parseDelimited(body, format === "csv" ? "," : "\t");
  const header = records?.[0];
  if (records === undefined || header === undefined) return undefined;
  if (records.some((r) => r.length !== header.length)) return undefined;
  const t: Table = { dialect: { format, eol, finalEol }, header, rows: records.slice(1) };
  const again = serializeTable(t);
  return sameBytes(again, bytes) || sameRows(path, again, bytes) ? t : undefined;
}

/** The dialect as the placed Python table tool takes it, e.g. "csv:lf:final" or "jsonl:crlf:nofinal:spaced:ascii". */
export function dialectSpec(d: TableDialect): string {
  const parts: string[] = [d.format, d.eol === "\n" ? "lf" : "crlf", d.finalEol ? "final" : "nofinal"];
  if (d.format === "jsonl") {
    parts.push(d.json?.spaced ? "spaced" : "compact", d.json?.ascii ? "ascii" : "utf8");
  }
  return parts.join(":");
}

/** An empty cell of the table's kind: "" in CSV/TSV, null in JSON lines. */
export function blankCell(t: Table): unknown {
  return t.dialect.format === "jsonl" ? null : "";
}

/** True for an empty cell ("" or null). */
export function isBlank(v: unknown): boolean {
  return v === "" || v === null;
}

/** A column name not in `header`, derived from `wanted`. */
export function freshColumn(header: readonly string[], wanted: string): string {
  let name = wanted;
  for (let i = 2; header.includes(name); i++) name = `${wanted}_${i}`;
  return name;
}
