import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { PNG } from "pngjs";
import { errorMessage, UserError } from "../core/errors.js";
import type { FactForm, FileTree, GroundFact } from "./types.js";

/** The canonical form a file is compared in, chosen by its extension (case-insensitive). */
export function factForm(path: string): FactForm {
  switch (extname(path).toLowerCase()) {
    case ".json":
      return "json";
    case ".csv":
    case ".tsv":
    case ".jsonl":
      return "rows";
    case ".sqlite":
    case ".sqlite3":
    case ".db":
      return "sqlite";
    case ".png":
      return "pixels";
    default:
      return "bytes";
  }
}

function sha256(...parts: (Uint8Array | string)[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex");
}

/** Strict UTF-8 decoding with a leading BOM dropped; throws on invalid bytes. */
function decodeText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

/** Canonical JSON text: object keys sorted by code unit, no whitespace, arrays in order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Parses delimited text (RFC 4180 style): a field that starts with `"` is quoted, `""` inside it is
 * one quote, and delimiters and line breaks inside quotes are data. Records end at \n, \r\n or \r.
 * Blank lines are skipped (a lone quoted empty field `""` is a real one-field record). Throws a
 * plain Error on an unterminated quote or text after a closing quote.
 */
export function parseDelimited(text: string, delimiter = ","): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quotedSeen = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = (): void => {
    row.push(field);
    if (!(row.length === 1 && field === "" && !quotedSeen)) rows.push(row);
    row = [];
    field = "";
    quotedSeen = false;
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"' && field === "") {
      // A quoted field: read to the closing quote.
      quotedSeen = true;
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        const q = text[i] as string;
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += q;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== delimiter && next !== "\n" && next !== "\r") {
        throw new Error(`text after a closing quote at offset ${i}`);
      }
      continue;
    }
    if (c === delimiter) {
      row.push(field);
      field = "";
      quotedSeen = true; // a record with a delimiter is never a blank line
      i++;
    } else if (c === "\n" || c === "\r") {
      endRecord();
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== "" || row.length > 0 || quotedSeen) endRecord();
  return rows;
}

/** The canonical rows text of a table: CSV/TSV header row then sorted data rows; JSONL sorted canonical objects. */
function rowsCanonical(path: string, text: string): string {
  const ext = extname(path).toLowerCase();
  if (ext === ".jsonl") {
    const lines = text
      .replace(/^\uFEFF/, "")
      .split(/\r?\n|\r/)
      .filter((l) => l.trim() !== "")
      .map((l) => canonicalJson(JSON.parse(l)));
    return JSON.stringify(lines.sort());
  }
  const rows = parseDelimited(text, ext === ".tsv" ? "\t" : ",");
  const [header, ...data] = rows;
  if (header === undefined) return "[]";
  const keyed = data
    .map((r) => [JSON.stringify(r), r] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([header, ...keyed.map(([, r]) => r)]);
}

/** Encodes one SQLite value with its storage class, so 1, 1.0, "1" and x'01' stay distinct. */
function sqliteValue(v: unknown): string | null {
  if (v === null) return null;
  if (typeof v === "bigint") return `i:${v}`;
  if (typeof v === "number") return `r:${v}`;
  if (typeof v === "string") return `t:${v}`;
  if (v instanceof Uint8Array) return `b:${Buffer.from(v).toString("hex")}`;
  throw new Error(`unexpected SQLite value of type ${typeof v}`);
}

/** The logical dump of an SQLite database read from a private copy (never the caller's file). */
function sqliteCanonical(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "lh-facts-"));
  try {
    const copy = Buffer.from(bytes);
    // A WAL-mode header would make a read-only open look for -wal/-shm files; the copy has none,
    // so marking it rollback-journal mode reads the same content.
    if (copy.length >= 20 && copy[18] === 2 && copy[19] === 2) copy[18] = copy[19] = 1;
    const file = join(dir, "copy.sqlite");
    writeFileSync(file, copy);
    const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    try {
      const names = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
        )
        .pluck()
        .all() as string[];
      const tables = names.sort().map((name) => {
        const q = `"${name.replaceAll('"', '""')}"`;
        const columns = (db.prepare(`PRAGMA table_info(${q})`).all() as { name: string }[]).map(
          (c) => c.name,
        );
        const rows = (db.prepare(`SELECT * FROM ${q}`).raw(true).safeIntegers(true).all() as unknown[][])
          .map((r) => JSON.stringify(r.map(sqliteValue)))
          .sort();
        return { name, columns, rows };
      });
      return JSON.stringify(tables);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Width, height and RGBA samples (8-bit; 16-bit images keep their full samples). */
function pixelsDigest(bytes: Uint8Array): string {
  const sixteen = bytes.length > 24 && bytes[24] === 16;
  const png = PNG.sync.read(Buffer.from(bytes), { skipRescale: sixteen });
  const data: unknown = png.data;
  let samples: Uint8Array;
  if (data instanceof Uint16Array) {
    samples = new Uint8Array(data.length * 2);
    const view = new DataView(samples.buffer);
    data.forEach((v, i) => {
      view.setUint16(i * 2, v);
    });
  } else {
    samples = png.data;
  }
  return sha256(`pixels\n${png.width}x${png.height}x${sixteen ? 16 : 8}\n`, samples);
}

/**
 * sha256 hex of `bytes` in canonical `form` (default: by extension). Throws UserError naming the
 * file when the content is not valid in that form (bad JSON, ragged quoting, not a database...).
 */
export function canonicalDigest(path: string, bytes: Uint8Array, form: FactForm = factForm(path)): string {
  try {
    switch (form) {
      case "bytes":
        return sha256(bytes);
      case "json":
        return sha256("json\n", canonicalJson(JSON.parse(decodeText(bytes).replace(/^\uFEFF/, ""))));
      case "rows":
        return sha256("rows\n", rowsCanonical(path, decodeText(bytes)));
      case "sqlite":
        return sha256("sqlite\n", sqliteCanonical(bytes));
      case "pixels":
        return pixelsDigest(bytes);
    }
  } catch (e) {
    throw new UserError(`${path}: not readable as ${form}: ${errorMessage(e)}`, { cause: e });
  }
}

/**
 * The ground fact of one file: its extension's canonical form, or plain bytes when the content
 * does not parse in that form (a `.json` file that is not JSON is still protected, byte for byte).
 */
export function factOf(path: string, bytes: Uint8Array): GroundFact {
  const form = factForm(path);
  if (form !== "bytes") {
    try {
      return { path, form, digest: canonicalDigest(path, bytes, form) };
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
    }
  }
  return { path, form: "bytes", digest: sha256(bytes) };
}

/** Ground facts of `paths` (default: every file) in `tree`, sorted by path. */
export function groundFacts(tree: FileTree, paths?: readonly string[]): GroundFact[] {
  const chosen = paths === undefined ? [...tree.keys()] : [...new Set(paths)];
  return chosen
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((p) => {
      const bytes = tree.get(p);
      if (bytes === undefined) throw new UserError(`ground fact for ${p}: no such file in the environment`);
      return factOf(p, bytes);
    });
}
