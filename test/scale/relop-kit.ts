import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { groundFacts } from "../../src/scale/facts.js";
import { readTree, utf8, writeTree } from "../../src/scale/file-tree.js";
import { jsonObjectText } from "../../src/scale/transforms/shared/json-style.js";
import { withSqlite } from "../../src/scale/transforms/shared/sqlite.js";
import { serializeTable, type TableDialect } from "../../src/scale/transforms/shared/table.js";
import type { FileTree, GroundFact, RestoreStep, Transform, TransformOutput } from "../../src/scale/types.js";
import { runRestore, sampleEnvironments } from "../support/transform-conformance.js";

/** Runs `steps` on a copy of `tree` in a fresh temporary folder and returns the files left. */
export function restoreCopy(tree: FileTree, steps: readonly RestoreStep[]): Map<string, Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), "relop-"));
  try {
    writeTree(dir, tree);
    runRestore(dir, steps);
    return readTree(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface RoundTrip {
  out: TransformOutput;
  before: GroundFact[];
  after: GroundFact[];
}

/** Applies `t` with its default parameters for `seed`, restores a copy, and returns target facts before and after. */
export function roundTrip(
  t: Transform<unknown>,
  env: FileTree,
  targets: string[],
  seed: number,
  params?: unknown,
): RoundTrip {
  const p = t.params.parse(params ?? t.defaultParams(seed));
  const out = t.apply({ env, targets, params: p, seed });
  const restored = restoreCopy(out.env, out.restore);
  return { out, before: groundFacts(env, targets), after: groundFacts(restored, targets) };
}

const text = utf8.encode;

function inventoryDb(): Uint8Array {
  return withSqlite(undefined, (db) => {
    db.exec(
      "CREATE TABLE products (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, stock INTEGER, price REAL)",
    );
    db.exec('CREATE TABLE "order lines" (order_id INTEGER REFERENCES products(id), qty INTEGER, note TEXT)');
    db.exec('CREATE INDEX lines_by_order ON "order lines"(order_id)');
    db.exec("CREATE TABLE tags (k TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID");
    const p = db.prepare("INSERT INTO products (name, stock, price) VALUES (?, ?, ?)");
    for (let i = 0; i < 12; i++) p.run(`widget ${i}`, i % 3 === 0 ? null : i * 7 - 20, i * 1.25);
    const l = db.prepare('INSERT INTO "order lines" VALUES (?, ?, ?)');
    for (let i = 0; i < 9; i++) l.run((i % 4) + 1, i + 1, i % 2 === 0 ? "gift" : null);
    db.prepare("INSERT INTO tags VALUES (?, ?)").run("colour", Buffer.from([1, 2, 3]));
    db.exec("VACUUM");
  }).bytes;
}

/**
 * One more environment with what the relation and operation transforms look for that the shared
 * samples have little of: tables with repeated values in every dialect (spaced JSON lines with
 * \u escapes, quote-everything CSV, CRLF TSV), and a database with AUTOINCREMENT, an index, a
 * foreign key, a quoted table name and a WITHOUT ROWID table.
 */
export function relopSamples(): FileTree[] {
  const ledger = [
    ["txn", "account", "kind", "amount"],
    ["t1", "acme", "debit", "10.50"],
    ["t2", "globex", "credit", "3.00"],
    ["t3", "acme", "credit", "7.25"],
    ["t4", "initech", "debit", "1.00"],
    ["t5", "globex", "debit", "99.99"],
  ];
  const quoted = ledger.map((r) => r.map((c) => `"${c}"`).join(",")).join("\n");
  const tsvDialect: TableDialect = { format: "tsv", eol: "\r\n", finalEol: false };
  const jsonl = [
    { city: "Zürich", country: "CH", pop: 421878, tags: ["lake"] },
    { city: "Genève", country: "CH", pop: 203856, tags: [] },
    { city: "Lyon", country: "FR", pop: 522969, tags: ["river", "old"] },
    { city: "Köln", country: "DE", pop: 1073096, tags: null },
  ];
  const spaced = { spaced: true, ascii: true };
  return [
    new Map([
      ["ledger/quoted.csv", text(`${quoted}\n`)],
      [
        "ledger/visits.tsv",
        serializeTable({
          dialect: tsvDialect,
          header: ["day", "site", "n"],
          rows: [
            ["mon", "a", "1"],
            ["tue", "a", "2"],
            ["wed", "b", "2"],
          ],
        }),
      ],
      [
        "geo/cities.jsonl",
        text(`${jsonl.map((r) => jsonObjectText(Object.entries(r), spaced)).join("\n")}\n`),
      ],
      ["store/inventory.db", inventoryDb()],
      ["-odd name.txt", text("a file whose name starts with a dash\n")],
    ]),
  ];
}

/** The shared samples plus the relation/operation extras. */
export function allSamples(): FileTree[] {
  return [...sampleEnvironments(), ...relopSamples()];
}

/** Transforms that take only some tables or databases: the extras matter for them. */
const SELECTIVE = new Set(["fk-normalize", "decoy-records", "backfill", "schema-migration"]);

/**
 * The samples a transform's conformance run uses: all of them for the selective ones, the shared
 * ones for transforms that take any file (the extras would only repeat cases, at a python start each).
 */
export function samplesFor(t: Transform<unknown>): () => FileTree[] {
  return SELECTIVE.has(t.name) ? allSamples : sampleEnvironments;
}
