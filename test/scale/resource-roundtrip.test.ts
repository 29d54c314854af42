import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groundFacts } from "../../src/scale/facts.js";
import { RESOURCE_TRANSFORMS } from "../../src/scale/transforms/resource/index.js";
import type { FileTree } from "../../src/scale/types.js";
import { restoreInTemp } from "../support/transform-conformance.js";
import {
  csvTable,
  csvText,
  jsonKeyObject,
  jsonlRecords,
  jsonlText,
  pngBytes,
  textBytes,
  treePath,
  utf8,
} from "./resource-arbitraries.js";
import { fcRuns } from "./support/fc-runs.js";

interface Case {
  tree: FileTree;
  targets: string[];
}

/** Files next to the targets that every restore must leave alone ("zz-other" cannot be a generated segment). */
const OTHERS: [string, Uint8Array][] = [
  ["zz-other/keep.txt", utf8.encode("unrelated file\n")],
  ["zz-other/deep/x.bin", new Uint8Array([0, 255, 7])],
];

/** No path may be a folder of another. */
function consistent(paths: readonly string[]): boolean {
  return paths.every((a) => paths.every((b) => a === b || !b.startsWith(`${a}/`)));
}

const single = (path: fc.Arbitrary<string>, bytes: fc.Arbitrary<Uint8Array>): fc.Arbitrary<Case> =>
  fc.tuple(path, bytes).map(([p, b]) => ({ tree: new Map([[p, b], ...OTHERS]), targets: [p] }));

const anyExt = fc.constantFrom("", ".csv", ".json", ".jsonl", ".png", ".db", ".bin", ".txt");
const anyPath = anyExt.chain(treePath);
const anyBytes = fc.uint8Array({ maxLength: 300 });

const several: fc.Arbitrary<Case> = fc
  .uniqueArray(fc.tuple(anyPath, anyBytes), { minLength: 2, maxLength: 3, selector: ([p]) => p })
  .filter((files) => consistent(files.map(([p]) => p)))
  .map((files) => ({ tree: new Map([...files, ...OTHERS]), targets: files.map(([p]) => p) }));

const csvFile = (opts: Parameters<typeof csvTable>[0]) => csvTable(opts).chain(csvText).map(utf8.encode);
const jsonlFile = (keyValues?: string[]) =>
  fc
    .tuple(fc.boolean(), fc.boolean())
    .chain(([strings, crlf]) => jsonlRecords(strings, keyValues).map((r) => utf8.encode(jsonlText(r, crlf))));

const tables = fc.oneof(single(treePath(".csv"), csvFile({})), single(treePath(".jsonl"), jsonlFile()));

const jsonDoc = fc
  .oneof(jsonKeyObject, fc.array(jsonKeyObject, { minLength: 1, maxLength: 3 }))
  .chain((doc) => fc.constantFrom(JSON.stringify(doc), JSON.stringify(doc, null, 3)))
  .map(utf8.encode);

const KEYS = ["north", "south", "east"];

/** Runs per transform: each restores in a temporary folder, python3 included (LONGHAUL_FC_RUNS sweeps more). */
const RUNS = fcRuns(8);

const CASES: Record<string, fc.Arbitrary<Case>> = {
  base64: single(anyPath, anyBytes),
  gzip: single(anyPath, anyBytes),
  "layered-wrap": single(anyPath, anyBytes),
  split: single(anyPath, fc.uint8Array({ minLength: 2, maxLength: 300 })),
  "move-rename": single(anyPath, anyBytes),
  archive: several,
  "sqlite-blob": several,
  "format-change": tables,
  "field-rename": fc.oneof(tables, single(treePath(".json"), jsonDoc)),
  partition: fc.oneof(
    single(treePath(".csv"), csvFile({ minRows: 3, keyValues: KEYS })),
    single(treePath(".jsonl"), jsonlFile(KEYS)),
  ),
  "text-reencode": single(
    fc.constantFrom(".txt", ".md", ".csv", ".json").chain(treePath),
    fc.boolean().chain(textBytes),
  ),
  "image-rotate": single(treePath(".png"), pngBytes),
};

describe("resource transforms restore random accepted inputs", () => {
  it("has a property for every resource transform", () => {
    expect(Object.keys(CASES).sort()).toEqual(RESOURCE_TRANSFORMS.map((t) => t.name).sort());
  });

  for (const t of RESOURCE_TRANSFORMS) {
    it(`${t.name}: apply then restore gives back every target's facts`, () => {
      const arb = CASES[t.name] as fc.Arbitrary<Case>;
      let applied = 0;
      fc.assert(
        fc.property(arb, fc.integer({ min: 0, max: 2 ** 31 - 1 }), ({ tree, targets }, seed) => {
          fc.pre(targets.every((p) => t.accepts(p, tree.get(p) as Uint8Array)));
          applied++;
          const out = t.apply({ env: tree, targets, params: t.defaultParams(seed), seed });
          const restored = restoreInTemp(out.env, out.restore);
          expect(groundFacts(restored, targets)).toEqual(groundFacts(tree, targets));
          for (const [p, b] of OTHERS) expect(restored.get(p)).toEqual(b);
        }),
        { numRuns: RUNS, seed: 20_240_611 },
      );
      // Guard against a property that only ever skipped its input: two runs in three applied.
      expect(applied).toBeGreaterThanOrEqual(Math.ceil((RUNS * 2) / 3));
    });
  }
});
