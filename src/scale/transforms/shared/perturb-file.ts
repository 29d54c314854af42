import { PNG } from "pngjs";
import type { Rng } from "../../../core/rng.js";
import { extension } from "./names.js";
import { perturbRow } from "./perturb.js";
import { ident, readSqlite, withSqlite } from "./sqlite.js";
import { parseTable, serializeTable } from "./table.js";

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function perturbTable(path: string, bytes: Uint8Array, rng: Rng): Uint8Array | undefined {
  const t = parseTable(path, bytes);
  if (t === undefined || t.rows.length === 0) return undefined;
  const rows = t.rows.map((r) => [...r]);
  const edits = rng.int(1, Math.min(3, rows.length));
  for (let k = 0; k < edits; k++) {
    const i = rng.int(0, rows.length - 1);
    rows[i] = perturbRow(t, rows[i] as unknown[], rng) ?? (rows[i] as unknown[]);
  }
  return serializeTable({ ...t, rows });
}

/** Changes one number (or else one string) leaf of a JSON document, keeping its layout style. */
function perturbJson(bytes: Uint8Array, rng: Rng): Uint8Array | undefined {
  let text: string;
  let doc: unknown;
  try {
    text = STRICT_UTF8.decode(bytes);
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  const leaves: { parent: Record<string, unknown> | unknown[]; key: string | number; value: unknown }[] = [];
  const walk = (v: unknown): void => {
    if (typeof v !== "object" || v === null) return;
    const pairs: [string | number, unknown][] = Array.isArray(v)
      ? v.map((x, i) => [i, x])
      : Object.entries(v);
    for (const [key, x] of pairs) {
      if (typeof x === "object" && x !== null) walk(x);
      else leaves.push({ parent: v as Record<string, unknown> | unknown[], key, value: x });
    }
  };
  walk(doc);
  const numbers = leaves.filter((l) => typeof l.value === "number" && Number.isSafeInteger(l.value));
  const strings = leaves.filter((l) => typeof l.value === "string" && l.value.length > 0);
  const pool = numbers.length > 0 ? numbers : strings;
  if (pool.length === 0) return undefined;
  const leaf = rng.pick(pool);
  const next =
    typeof leaf.value === "number"
      ? leaf.value + rng.int(1, 9)
      : `${leaf.value as string} (rev ${rng.int(2, 9)})`;
  (leaf.parent as Record<string | number, unknown>)[leaf.key] = next;
  const indent = /^[[{]\r?\n( +|\t)/.exec(text)?.[1] ?? "";
  return new TextEncoder().encode(JSON.stringify(doc, null, indent) + (text.endsWith("\n") ? "\n" : ""));
}

/** Adds to one numeric cell of one row of some table (or else rewrites one text cell). */
function perturbSqlite(bytes: Uint8Array, rng: Rng): Uint8Array | undefined {
  const plan = readSqlite(bytes, (db) => {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[];
    const cells: { table: string; column: string; rowid: number | bigint; numeric: boolean }[] = [];
    for (const { name } of tables) {
      const cols = db.prepare(`PRAGMA table_info(${ident(name)})`).all() as { name: string; pk: number }[];
      for (const c of cols.filter((c) => c.pk === 0)) {
        let rows: { rowid: number | bigint; t: string }[];
        try {
          rows = db
            .prepare(
              `SELECT rowid AS rowid, typeof(${ident(c.name)}) AS t FROM ${ident(name)} ORDER BY rowid LIMIT 50`,
            )
            .all() as { rowid: number | bigint; t: string }[];
        } catch {
          continue; // WITHOUT ROWID tables have no rowid to address a row by
        }
        for (const r of rows) {
          if (r.t === "integer" || r.t === "real" || r.t === "text") {
            cells.push({ table: name, column: c.name, rowid: r.rowid, numeric: r.t !== "text" });
          }
        }
      }
    }
    const numeric = cells.filter((c) => c.numeric);
    return cells.length === 0 ? undefined : rng.pick(numeric.length > 0 ? numeric : cells);
  });
  if (plan === undefined) return undefined;
  const delta = rng.int(1, 9);
  const set = plan.numeric
    ? `${ident(plan.column)} + ${delta}`
    : `${ident(plan.column)} || ' (rev ${delta})'`;
  return withSqlite(bytes, (db) => {
    db.prepare(`UPDATE ${ident(plan.table)} SET ${ident(plan.column)} = ${set} WHERE rowid = ?`).run(
      plan.rowid,
    );
  }).bytes;
}

function perturbPng(bytes: Uint8Array, rng: Rng): Uint8Array | undefined {
  try {
    const png = PNG.sync.read(Buffer.from(bytes));
    const x0 = rng.int(0, png.width - 1);
    const y0 = rng.int(0, png.height - 1);
    for (let y = y0; y < Math.min(png.height, y0 + 4); y++) {
      for (let x = x0; x < Math.min(png.width, x0 + 4); x++) {
        const o = (y * png.width + x) * 4;
        for (let c = 0; c < 3; c++) png.data[o + c] = ((png.data[o + c] ?? 0) + 40) % 256;
      }
    }
    return new Uint8Array(PNG.sync.write(png));
  } catch {
    return undefined;
  }
}

/** Changes a number in one line of a text, or else appends a plausible line. */
function perturbText(bytes: Uint8Array, rng: Rng): Uint8Array | undefined {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  const digits = [...text.matchAll(/\d/g)].map((m) => m.index);
  if (digits.length > 0) {
    const at = rng.pick(digits);
    const d = Number(text[at]);
    const next = (d + rng.int(1, 9)) % 10;
    return new TextEncoder().encode(text.slice(0, at) + String(next) + text.slice(at + 1));
  }
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const sep = text === "" || text.endsWith(eol) ? "" : eol;
  return new TextEncoder().encode(`${text}${sep}(draft revision ${rng.int(2, 9)})${eol}`);
}

function perturbBytes(bytes: Uint8Array, rng: Rng): Uint8Array {
  const out = new Uint8Array(bytes.length === 0 ? 1 : bytes.length);
  out.set(bytes);
  const flips = Math.max(1, Math.min(8, out.length >> 6));
  for (let k = 0; k < flips; k++) {
    const i = rng.int(0, out.length - 1);
    out[i] = ((out[i] ?? 0) ^ rng.int(1, 255)) & 0xff;
  }
  return out;
}

/**
 * A plausible different version of a file (some table rows changed, a JSON number bumped, an
 * SQLite cell updated, a few pixels shifted, a digit in a text changed), never equal to it.
 */
export function perturbFile(path: string, bytes: Uint8Array, rng: Rng): Uint8Array {
  const ext = extension(path);
  let out: Uint8Array | undefined;
  if (ext === "csv" || ext === "tsv" || ext === "jsonl") out = perturbTable(path, bytes, rng);
  else if (ext === "json") out = perturbJson(bytes, rng);
  else if (ext === "sqlite" || ext === "sqlite3" || ext === "db") out = perturbSqlite(bytes, rng);
  else if (ext === "png") out = perturbPng(bytes, rng);
  out ??= perturbText(bytes, rng);
  if (out === undefined || Buffer.from(out).equals(Buffer.from(bytes))) out = perturbText(bytes, rng);
  if (out === undefined || Buffer.from(out).equals(Buffer.from(bytes))) out = perturbBytes(bytes, rng);
  return out;
}
