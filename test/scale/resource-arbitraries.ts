import fc from "fast-check";
import { PNG } from "pngjs";
import { utf8 } from "../../src/scale/file-tree.js";

/** Characters that stress CSV and JSON handling: separators, quotes, line breaks, BOM, non-ASCII, astral. */
const TRICKY = [
  "a",
  "b",
  "Z",
  "1",
  " ",
  ",",
  '"',
  "\n",
  "\r",
  "\t",
  "é",
  "ß",
  "€",
  "😀",
  "\uFEFF",
  "'",
  "\\",
];

export const trickyString = (maxLength = 6): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...TRICKY), maxLength });

const segment = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,5}$/);

/** A tree path of 1-3 folders-deep segments ending in `ext`. */
export const treePath = (ext: string): fc.Arbitrary<string> =>
  fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `${parts.join("/")}${ext}`);

/** Serializes CSV with random (valid) choices: which fields to quote beyond the necessary, CRLF or LF, final newline. */
export const csvText = (rows: string[][]): fc.Arbitrary<string> =>
  fc
    .record({
      quoteAll: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
      crlf: fc.boolean(),
      finalNewline: fc.boolean(),
    })
    .map(({ quoteAll, crlf, finalNewline }) => {
      let k = 0;
      const eol = crlf ? "\r\n" : "\n";
      const lines = rows.map((r) =>
        r
          .map((f) => {
            const must = /[",\r\n]/.test(f) || (r.length === 1 && f === "") || f.startsWith("\uFEFF");
            return must || quoteAll[k++ % 64] ? `"${f.replaceAll('"', '""')}"` : f;
          })
          .join(","),
      );
      return lines.join(eol) + (finalNewline ? eol : "");
    });

/** A rectangular CSV table with distinct header names and 0-5 data rows. */
export const csvTable = (opts: { minRows?: number; keyValues?: string[] } = {}): fc.Arbitrary<string[][]> =>
  fc
    .uniqueArray(fc.oneof(trickyString(5), fc.constantFrom("id", "name", "1", "0", "Name", "__proto__")), {
      minLength: 1,
      maxLength: 4,
    })
    .chain((header) =>
      fc
        .array(
          fc.tuple(
            fc.array(trickyString(), { minLength: header.length, maxLength: header.length }),
            fc.constantFrom(...(opts.keyValues ?? ["k"])),
          ),
          { minLength: opts.minRows ?? 0, maxLength: 6 },
        )
        .map((rows) => [
          header,
          // With key values given, the first column is a low-cardinality key to partition by.
          ...rows.map(([cells, key]) => (opts.keyValues ? [key, ...cells.slice(1)] : cells)),
        ]),
    );

const jsonKey = fc.oneof(trickyString(4), fc.constantFrom("id", "1", "0", "site", "__proto__", "a b"));

/** JSONL records sharing one key set; values all strings, or any JSON values. */
export const jsonlRecords = (
  allStrings: boolean,
  keyValues?: string[],
): fc.Arbitrary<Record<string, unknown>[]> =>
  fc.uniqueArray(jsonKey, { minLength: 1, maxLength: 4 }).chain((keys) =>
    fc.array(
      fc
        .tuple(
          fc.array(allStrings ? trickyString() : fc.jsonValue({ maxDepth: 2 }), {
            minLength: keys.length,
            maxLength: keys.length,
          }),
          fc.constantFrom(...(keyValues ?? ["k"])),
        )
        .map(([values, key]) => {
          const o: Record<string, unknown> = {};
          keys.forEach((k, i) => {
            Object.defineProperty(o, k, {
              value: keyValues && i === 0 ? key : values[i],
              enumerable: true,
              writable: true,
              configurable: true,
            });
          });
          return o;
        }),
      { minLength: 1, maxLength: 6 },
    ),
  );

export const jsonlText = (records: Record<string, unknown>[], crlf = false): string =>
  `${records.map((r) => JSON.stringify(r)).join(crlf ? "\r\n" : "\n")}\n`;

/** A PNG of 1-7 x 1-7 pixels, RGB or RGBA, written with a random filter strategy. */
export const pngBytes: fc.Arbitrary<Uint8Array> = fc
  .record({
    w: fc.integer({ min: 1, max: 7 }),
    h: fc.integer({ min: 1, max: 7 }),
    colorType: fc.constantFrom(2 as const, 6 as const),
    filterType: fc.constantFrom(-1, 0, 1, 2, 3, 4),
    seed: fc.integer({ min: 0, max: 1 << 30 }),
  })
  .map(({ w, h, colorType, filterType, seed }) => {
    const png = new PNG({ width: w, height: h });
    let x = seed;
    for (let i = 0; i < w * h * 4; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      png.data[i] = colorType === 2 && i % 4 === 3 ? 255 : x >>> 24;
    }
    return new Uint8Array(PNG.sync.write(png, { colorType, inputHasAlpha: true, filterType }));
  });

/** UTF-8 text without NUL: any Unicode, or only Latin-1 characters. */
export const textBytes = (latin1: boolean): fc.Arbitrary<Uint8Array> =>
  (latin1
    ? fc.string({ unit: fc.integer({ min: 1, max: 0xff }).map((c) => String.fromCharCode(c)), minLength: 1 })
    : fc.string({ unit: "binary", minLength: 1 }).filter((s) => !s.includes("\0"))
  ).map((s) => utf8.encode(s));

export { utf8 };

/** A JSON object with 1-4 keys (including tricky ones) and any JSON values. */
export const jsonKeyObject: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  jsonKey,
  fc.jsonValue({ maxDepth: 2 }),
  {
    minKeys: 1,
    maxKeys: 4,
  },
);
