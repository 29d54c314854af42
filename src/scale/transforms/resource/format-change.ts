import { extname } from "node:path";
import { z } from "zod";
import { cloneTree, utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import {
  code,
  dirOf,
  fileOf,
  hexId,
  inDir,
  PathPicker,
  resourceTransform,
  rngFor,
  shq,
  stemOf,
} from "./common.js";
import { buildSqlite, sqlIdent } from "./sqlite-file.js";
import { CSV_TO_JSONL, JSONL_TO_CSV, SQLITE_TO_TABLE } from "./table-scripts.js";
import { objectLine, readCsvTable, readJsonlTable, sqliteSafeNames, writeCsv } from "./tables.js";

type Format = "csv" | "jsonl" | "sqlite";

const params = z
  .object({
    /** Prefer an SQLite table over the other text format when both are lossless. */
    prefer: z.enum(["sqlite", "text"]),
    table: z.enum(["records", "rows", "data"]),
  })
  .strict();
type FormatParams = z.infer<typeof params>;

/** A parsed table as header + cell texts, and the formats it converts to without loss. */
interface Plan {
  from: "csv" | "jsonl";
  header: string[];
  /** Cell texts per row: CSV cells, or JSONL values as strings (text mode) or JSON texts (json mode). */
  cells: string[][];
  mode: "text" | "json";
  to: Format[];
}

function planFor(path: string, bytes: Uint8Array): Plan | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === ".csv") {
    const t = readCsvTable(bytes);
    if (t === undefined) return undefined;
    // JSONL has no header line, so an empty table would lose its column names.
    const to: Format[] = [
      ...(t.rows.length > 0 ? ["jsonl" as const] : []),
      ...(sqliteSafeNames(t.header) ? ["sqlite" as const] : []),
    ];
    return { from: "csv", header: t.header, cells: t.rows, mode: "text", to };
  }
  if (ext === ".jsonl") {
    const t = readJsonlTable(bytes);
    if (t === undefined) return undefined;
    const mode = t.allStrings ? "text" : "json";
    const cells = t.records.map((r) =>
      t.keys.map((k) => (mode === "text" ? (r[k] as string) : JSON.stringify(r[k]))),
    );
    const to: Format[] = ["csv", ...(sqliteSafeNames(t.keys) ? ["sqlite" as const] : [])];
    return { from: "jsonl", header: t.keys, cells, mode, to };
  }
  return undefined;
}

function describeCells(plan: Plan): string {
  if (plan.from === "csv") return "cells are the CSV's text values";
  return plan.mode === "text"
    ? "each cell is the record's string value for that key"
    : "each cell holds the JSON encoding of the record's value (strings in quotes, numbers, true/false/null, arrays, objects)";
}

export const formatChange: Transform<FormatParams> = resourceTransform<FormatParams>({
  name: "format-change",
  basic: false,
  summary: "Converts a table losslessly between CSV, JSONL and an SQLite table.",
  restoreDoc:
    "Convert back with python3's csv, json and sqlite3 modules: JSONL objects to CSV rows (header from the keys), " +
    "CSV rows to JSONL objects, or the SQLite table's rows (rowid order) to CSV or JSONL.",
  params,
  arity: "one",
  accepts: (path, bytes) => (planFor(path, bytes)?.to.length ?? 0) > 0,
  defaultParams(seed) {
    const rng = rngFor("format-change/params", seed);
    return {
      prefer: rng.pick(["sqlite", "text"] as const),
      table: rng.pick(["records", "rows", "data"] as const),
    };
  },
  apply({ env, targets, params: p, seed }) {
    const [target] = targets as [string];
    const plan = planFor(target, fileOf(formatChange, env, target)) as Plan;
    const wanted: Format = p.prefer === "sqlite" ? "sqlite" : plan.from === "csv" ? "jsonl" : "csv";
    const to = plan.to.includes(wanted) ? wanted : (plan.to[0] as Format);
    const rng = rngFor("format-change", seed);
    const ext = to === "sqlite" ? ".sqlite" : `.${to}`;
    const dir = dirOf(target);
    const made = new PathPicker(env).pick((i) =>
      inDir(dir, i === 0 ? `${stemOf(target)}${ext}` : `${stemOf(target)}.${hexId(rng, 4)}${ext}`),
    );
    let bytes: Uint8Array;
    if (to === "csv") bytes = writeCsv([plan.header, ...plan.cells]);
    else if (to === "jsonl") {
      const text = plan.cells.map((row) => `${objectLine(plan.header, (_k, i) => JSON.stringify(row[i]))}\n`);
      bytes = utf8.encode(text.join(""));
    } else {
      bytes = buildSqlite((db) => {
        db.exec(
          `CREATE TABLE ${sqlIdent(p.table)} (${plan.header.map((h) => `${sqlIdent(h)} TEXT`).join(", ")})`,
        );
        const ins = db.prepare(
          `INSERT INTO ${sqlIdent(p.table)} VALUES (${plan.header.map(() => "?").join(", ")})`,
        );
        for (const row of plan.cells) ins.run(...row);
      });
    }
    const out = cloneTree(env);
    out.delete(target);
    out.set(made, bytes);

    const kind = plan.from;
    let run: string;
    if (to === "sqlite") {
      run = `python3 -c ${shq(SQLITE_TO_TABLE)} ${shq(made)} ${p.table} ${shq(target)} ${kind} ${plan.mode}`;
    } else if (to === "jsonl") {
      run = `python3 -c ${shq(JSONL_TO_CSV)} ${shq(made)} ${shq(target)}`;
    } else {
      run = `python3 -c ${shq(CSV_TO_JSONL)} ${shq(made)} ${shq(target)} ${plan.mode}`;
    }
    const shape =
      to === "sqlite"
        ? `the SQLite database ${code(made)}, table ${code(p.table)}: one TEXT column per ${kind === "csv" ? "CSV column" : "key"} in order and one row per record in file order (rowid order); ${describeCells(plan)}`
        : to === "jsonl"
          ? `the JSONL file ${code(made)}: one JSON object per data row, keys are the CSV header's column names in order, values the cells as strings`
          : `the CSV file ${code(made)}: the header row lists the keys, then one row per record in file order; ${describeCells(plan)}`;
    return {
      env: out,
      access: `${code(target)} has been converted to ${shape}. Convert it back to ${kind.toUpperCase()} to use it as before.`,
      restore: [{ run: `${run} && rm -f ${shq(made)}`, why: `convert ${made} back to ${target}` }],
      produced: [made],
      removed: [target],
    };
  },
});
