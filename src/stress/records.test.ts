import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CsvCell,
  csvToRecords,
  jsonlToRecords,
  parseCsv,
  parseRecords,
  RECORD_FORMATS,
  recordsToCsv,
  serializeRecords,
  toCsv,
} from "./records.js";
import type { Cell, Row } from "./types.js";

const key = fc.stringMatching(/^[a-z][a-z0-9_ ,"-]{0,7}$/);
const cell: fc.Arbitrary<Cell> = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "",
    "12",
    "1e5",
    "true",
    "false",
    "NA",
    'a "quoted", text',
    "line\nbreak",
    "cr\r\nlf",
    "\t",
  ),
  fc.integer(),
  // -0 would print as "0"
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => x + 0),
  fc.boolean(),
  fc.constant(null),
);
/** Tables: every row has every column, as CSV requires for an exact round trip. */
const table = fc.uniqueArray(key, { minLength: 1, maxLength: 5 }).chain((cols) =>
  fc.array(
    fc
      .tuple(...cols.map(() => cell))
      .map((vals) => Object.fromEntries(cols.map((c, i) => [c, vals[i] ?? null])) as Row),
    {
      maxLength: 8,
    },
  ),
);

describe("csv", () => {
  it("toCsv/parseCsv round-trips any cells, including quotes, delimiters, newlines and null vs empty", () => {
    const raw = fc.array(
      fc.array(fc.oneof(fc.string(), fc.constant(null)) as fc.Arbitrary<CsvCell>, {
        minLength: 1,
        maxLength: 4,
      }),
      {
        maxLength: 6,
      },
    );
    fc.assert(
      fc.property(
        raw,
        fc.constantFrom(",", ";", "\t"),
        fc.constantFrom("\n", "\r\n" as const),
        (rows, delimiter, newline) => {
          const text = toCsv(rows, { delimiter, newline });
          expect(parseCsv(text, { delimiter })).toEqual(rows);
        },
      ),
    );
  });

  it("records keep their types through recordsToCsv/csvToRecords", () => {
    fc.assert(
      fc.property(table, (rows) => {
        if (rows.length === 0) return;
        expect(csvToRecords(recordsToCsv(rows))).toEqual(rows);
        expect(csvToRecords(recordsToCsv(rows, { delimiter: "\t" }), { delimiter: "\t" })).toEqual(rows);
      }),
    );
  });

  it("reads CRLF files and reports ragged rows with their line number", () => {
    expect(csvToRecords('a,b\r\n1,"x"\r\n')).toEqual([{ a: 1, b: "x" }]);
    expect(() => csvToRecords("a,b\n1,2\n3\n")).toThrow(/row 3/);
  });
});

describe("serializeRecords/parseRecords", () => {
  it("round-trips every format", () => {
    fc.assert(
      fc.property(table, fc.constantFrom(...RECORD_FORMATS), (rows: Row[], format) => {
        if (rows.length === 0 && (format === "csv" || format === "tsv")) return;
        expect(parseRecords(serializeRecords(rows, format), format)).toEqual(rows);
      }),
    );
  });

  it("jsonl names the bad line", () => {
    expect(() => jsonlToRecords('{"a":1}\n\nnot json\n')).toThrow(/line 3/);
    expect(() => jsonlToRecords('{"a":[1]}\n')).toThrow(/field a/);
  });
});
