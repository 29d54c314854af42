import fc from "fast-check";
import { ident, withSqlite } from "../../src/scale/transforms/shared/sqlite.js";
import type { Table, TableFormat } from "../../src/scale/transforms/shared/table.js";

export { fc };

/** A table cell string with the characters that make CSV quoting and JSON escaping interesting. */
export const arbCell = fc.oneof(
  fc.constantFrom("", "a", "b", "north", "south", "1", "2.50", "-3"),
  fc.string({
    unit: fc.constantFrom("a", "Z", "0", " ", ",", '"', "\t", "\n", "\r", "é", "😀", "\\", "'"),
    maxLength: 8,
  }),
);

/** A small table in any dialect; column `grp` draws from three values so it always repeats. */
export const arbTable = fc
  .record({
    format: fc.constantFrom<TableFormat>("csv", "tsv", "jsonl"),
    crlf: fc.boolean(),
    finalEol: fc.boolean(),
    spaced: fc.boolean(),
    ascii: fc.boolean(),
    extra: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z_]{0,5}$/), { maxLength: 3 }),
    rows: fc.integer({ min: 2, max: 7 }),
    cells: fc.array(arbCell, { minLength: 21, maxLength: 21 }),
    groups: fc.array(fc.constantFrom("red", "green", "blue"), { minLength: 7, maxLength: 7 }),
    json: fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 21, maxLength: 21 }),
  })
  .map((r): Table => {
    const header = ["grp", ...r.extra.filter((h) => h !== "grp")];
    const jsonl = r.format === "jsonl";
    const rows = Array.from({ length: r.rows }, (_, i) =>
      header.map((_, j) =>
        j === 0 ? r.groups[i] : jsonl ? r.json[(i * 3 + j) % 21] : r.cells[(i * 3 + j) % 21],
      ),
    );
    const json = jsonl ? { spaced: r.spaced, ascii: r.ascii } : undefined;
    return {
      dialect: { format: r.format, eol: r.crlf ? "\r\n" : "\n", finalEol: r.finalEol, json },
      header,
      rows,
    };
  });

/** Paths with spaces, quotes, dollars, dashes and non-ASCII letters, to catch shell quoting slips. */
export const arbPath = fc
  .array(fc.stringMatching(/^[a-zA-Z0-9 '$"é_-][a-zA-Z0-9 .'$"é_-]{0,6}$/), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.map((p) => (p === "." || p === ".." ? "x" : p)).join("/"));

export const arbTree = fc
  .uniqueArray(fc.tuple(arbPath, fc.uint8Array({ maxLength: 300 })), {
    minLength: 1,
    maxLength: 4,
    selector: ([p]) => p,
  })
  .filter((files) => files.every(([a]) => files.every(([b]) => a === b || !b.startsWith(`${a}/`))));

/** One to three files with awkward names and arbitrary bytes. */
export const arbFiles = fc
  .uniqueArray(
    fc.tuple(
      fc.stringMatching(/^[a-z0-9 '$é-]{1,6}(\/[a-z0-9 .'$é_-]{1,6})?$/),
      fc.uint8Array({ maxLength: 400 }),
    ),
    { minLength: 1, maxLength: 3, selector: ([p]) => p },
  )
  .filter((files) => files.every(([a]) => files.every(([b]) => a === b || !b.startsWith(`${a}/`))));

export const arbValue = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  fc.string({ maxLength: 6 }),
  fc.uint8Array({ maxLength: 4 }).map((b) => Buffer.from(b)),
);
export const arbDb = fc
  .uniqueArray(
    fc.record({
      name: fc.constantFrom("orders", "my table", 'we"ird', "Items", "t1"),
      columns: fc.uniqueArray(fc.constantFrom("id", "qty", "label", "Price", "x y"), {
        minLength: 1,
        maxLength: 4,
      }),
      types: fc.array(fc.constantFrom("INTEGER", "TEXT", "REAL", "", "BLOB"), { minLength: 4, maxLength: 4 }),
      rows: fc.array(fc.array(arbValue, { minLength: 4, maxLength: 4 }), { maxLength: 5 }),
      ints: fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 5, maxLength: 5 }),
      indexed: fc.boolean(),
    }),
    { minLength: 1, maxLength: 3, selector: (t) => t.name.toLowerCase() },
  )
  .map(
    (tables) =>
      withSqlite(undefined, (db) => {
        for (const t of tables) {
          const cols = t.columns.map((c, i) => `${ident(c)} ${t.types[i]}`);
          db.exec(`CREATE TABLE ${ident(t.name)} (${cols.join(", ")}, counter INTEGER)`);
          if (t.indexed)
            db.exec(
              `CREATE INDEX ${ident(`ix ${t.name}`)} ON ${ident(t.name)}(${ident(t.columns[0] as string)})`,
            );
          const ins = db.prepare(
            `INSERT INTO ${ident(t.name)} VALUES (${[...t.columns, "c"].map(() => "?").join(", ")})`,
          );
          t.rows.forEach((r, i) => {
            ins.run(...r.slice(0, t.columns.length), t.ints[i] ?? null);
          });
        }
      }).bytes,
  );
