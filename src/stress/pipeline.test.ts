import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, digestOf } from "../core/canonical-json.js";
import { Rng } from "../core/rng.js";
import { fromUtf8, toBytes, utf8 } from "./bytes.js";
import { PERTURBATION_IDS, PERTURBATIONS, pickPerturbations, stageOf } from "./catalog.js";
import { resolveManifest } from "./manifest.js";
import { removeJunkLines } from "./noise.js";
import { applyPerturbations, type PerturbedRecords } from "./pipeline.js";
import { columnsOf, parseRecords } from "./records.js";
import { joinParts, type SplitManifest } from "./split.js";
import { makeStressCase, recordsGenerator, writeStressInputs } from "./stress-case.js";
import { decodeText } from "./text-encoding.js";
import type { FileTree, Row } from "./types.js";
import { unwrap, unwrapAuto, type WrapLayer } from "./wrappers.js";

const base: Row[] = Array.from({ length: 24 }, (_, i) => ({
  id: i,
  station_name: `st ${i}, "north"`,
  temp: -10 + i * 1.25,
  mass: i % 5 === 0 ? null : 0.5 * i,
  observed_at: new Date(Date.UTC(2025, 0, 1 + i, i % 24, (i * 7) % 60)).toISOString(),
  ok: i % 3 === 0,
}));
const options = { units: { temp: "C", mass: "kg" }, timestamps: ["observed_at"] };

/** Undo every text/byte/file-level perturbation using only the inputs and the reports. */
function recover(out: PerturbedRecords): Row[] {
  const report = (id: string): Record<string, unknown> | undefined =>
    out.applied.find((a) => a.id === id)?.report;
  let data: Uint8Array;
  if (report("nested-manifest")) data = resolveManifest(out.inputs, out.entry);
  else if (report("split-parts")) {
    const dir = out.entry.slice(0, out.entry.lastIndexOf("/") + 1);
    const manifest = JSON.parse(fromUtf8(out.inputs[out.entry] as Uint8Array)) as SplitManifest;
    const parts: FileTree = Object.fromEntries(
      manifest.parts.map((p) => [p.path, out.inputs[dir + p.path] as Uint8Array]),
    );
    data = joinParts(parts, manifest);
  } else data = out.inputs[out.entry] as Uint8Array;
  const layers = (report("wrap-layers")?.layers ?? []) as WrapLayer[];
  data = unwrap(data, layers);
  let text = decodeText(data).text;
  const junk = report("junk-lines")?.inserted as { line: number }[] | undefined;
  if (junk) text = removeJunkLines(text, junk);
  return parseRecords(text, out.format);
}

describe("pickPerturbations", () => {
  it("picks n distinct, composable perturbations in stage order", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 20 }), (seed, n) => {
        const ids = pickPerturbations(new Rng(seed), n);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBe(Math.min(n, PERTURBATION_IDS.length - 1));
        const stages = ids.map(stageOf);
        const rank = ["records", "text", "bytes", "files"];
        expect(stages.map((s) => rank.indexOf(s))).toEqual(
          [...stages.map((s) => rank.indexOf(s))].sort((a, b) => a - b),
        );
        expect(ids.includes("split-parts") && ids.includes("nested-manifest")).toBe(false);
        if (ids.includes("junk-lines") && ids.includes("text-encoding")) {
          expect(ids.indexOf("junk-lines")).toBeLessThan(ids.indexOf("text-encoding"));
        }
        expect(pickPerturbations(new Rng(seed), n)).toEqual(ids);
      }),
    );
  });

  it("covers every perturbation and varies the record-level order across seeds", () => {
    const seen = new Set<string>();
    const orders = new Set<string>();
    for (let s = 0; s < 200; s++) {
      const ids = pickPerturbations(new Rng(s), 6);
      for (const id of ids) seen.add(id);
      orders.add(ids.filter((id) => stageOf(id) === "records").join());
    }
    expect(seen).toEqual(new Set(PERTURBATIONS.map((p) => p.id)));
    expect(orders.size).toBeGreaterThan(50);
  });
});

describe("applyPerturbations", () => {
  it("the files hold exactly the reported records once text/byte/file perturbations are undone", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 12 }), (seed, n) => {
        const rng = new Rng(seed);
        const ids = pickPerturbations(rng, n);
        const out = applyPerturbations(rng, base, ids, options);
        expect([...out.applied.map((a) => a.id), ...out.skipped].sort()).toEqual([...ids].sort());
        const cols = columnsOf(out.records);
        const csvLike = out.format === "csv" || out.format === "tsv";
        const expected = csvLike
          ? out.records.map((r) => Object.fromEntries(cols.map((c) => [c, r[c] ?? null])))
          : out.records;
        expect(recover(out)).toEqual(expected);
      }),
      { numRuns: 80 },
    );
  });

  it("unwrapAuto alone peels the wrapper layers of a single-file case", () => {
    const out = applyPerturbations(new Rng(11), base, ["wrap-layers"], { format: "json" });
    const auto = unwrapAuto(out.inputs[out.entry] as Uint8Array);
    expect(auto.layers).toEqual(out.applied[0]?.report.layers);
    expect(parseRecords(fromUtf8(auto.data), "json")).toEqual(base);
  });

  it("reports unit and timestamp changes that convert back to the originals", () => {
    const out = applyPerturbations(new Rng(5), base, ["unit-change", "timestamp-format"], {
      ...options,
      format: "jsonl",
    });
    const unit = out.applied.find((a) => a.id === "unit-change")?.report as {
      field: string;
      newField: string;
      from: string;
      to: string;
    };
    expect(unit.from === "C" || unit.from === "kg").toBe(true);
    expect(out.records.every((r) => unit.newField in r)).toBe(true);
    const ts = out.applied.find((a) => a.id === "timestamp-format");
    expect(ts?.note).toMatch(/zone/);
  });
});

describe("makeStressCase", () => {
  const gen = recordsGenerator(base, { ...options, count: 7 });
  const bytesOf = (c: ReturnType<typeof makeStressCase>): string =>
    canonicalJson(
      Object.entries(c.inputs).map(([p, v]) => [
        p,
        Buffer.from(typeof v === "string" ? utf8(v) : v).toString("hex"),
      ]),
    );

  it("is byte-identical for the same seed and differs across seeds", () => {
    for (const seed of [0, 1, 42, 2 ** 31 - 1, "trial-7"]) {
      const a = makeStressCase(seed, gen);
      const b = makeStressCase(seed, gen);
      expect(bytesOf(a)).toBe(bytesOf(b));
      expect(digestOf(a.expected)).toBe(digestOf(b.expected));
      expect(a.notes).toEqual(b.notes);
      expect(a.seed).toBe(seed);
    }
    const digests = new Set(Array.from({ length: 20 }, (_, s) => digestOf(bytesOf(makeStressCase(s, gen)))));
    expect(digests.size).toBe(20);
  });

  it("writes inputs to disk byte for byte", async () => {
    const dir = await mkdtemp(join(tmpdir(), "stress-"));
    try {
      const c = makeStressCase(3, gen);
      const written = await writeStressInputs(dir, c.inputs);
      expect(written.length).toBe(Object.keys(c.inputs).length);
      for (const [p, v] of Object.entries(c.inputs))
        expect(new Uint8Array(await readFile(join(dir, p)))).toEqual(toBytes(v));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("rejects input paths that escape the case", () => {
    for (const bad of ["/abs", "../up", "a/../../b", "a//b", ""]) {
      expect(() => makeStressCase(1, () => ({ inputs: { [bad]: "x" }, expected: null }))).toThrow(/path/);
    }
  });
});
