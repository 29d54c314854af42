import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../core/canonical-json.js";
import { Rng } from "../core/rng.js";
import { shuffleFiles, shuffleKeys, shuffleWithOrder, unshuffle } from "./reorder.js";

describe("reordering", () => {
  it("unshuffle(shuffle(x)) = x and the order is a permutation", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer(), fc.string(), fc.object())), fc.integer(), (items, seed) => {
        const { items: out, order } = shuffleWithOrder(new Rng(seed), items);
        expect([...order].sort((a, b) => a - b)).toEqual(items.map((_, i) => i));
        out.forEach((v, i) => {
          expect(v).toBe(items[order[i] as number]);
        });
        expect(unshuffle(out, order)).toEqual(items);
      }),
    );
  });

  it("shuffled keys leave every record's canonical form unchanged", () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.integer())), fc.integer(), (rows, seed) => {
        const out = shuffleKeys(new Rng(seed), rows);
        expect(out.map(canonicalJson)).toEqual(rows.map(canonicalJson));
      }),
    );
  });

  it("key order really changes for wide records, and files keep their bytes", () => {
    const row = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(shuffleKeys(new Rng(2), [row])[0] ?? {})).not.toEqual(Object.keys(row));
    const files = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, new Uint8Array([i])]));
    const out = shuffleFiles(new Rng(2), files);
    expect(Object.keys(out)).not.toEqual(Object.keys(files));
    for (const [k, v] of Object.entries(files)) expect(out[k]).toEqual(v);
  });
});
