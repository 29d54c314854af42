import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../core/rng.js";
import { duplicateRows, injectJunkLines, jitterNumbers, removeDuplicates, removeJunkLines } from "./noise.js";

const num = fc.double({ min: -1e9, max: 1e9, noNaN: true });

describe("jitterNumbers", () => {
  it("stays within the absolute or relative bound and leaves other cells alone", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: num, s: fc.string() }), { maxLength: 20 }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.boolean(),
        fc.integer(),
        (rows, bound, relative, seed) => {
          const mode = relative ? "relative" : "absolute";
          const { rows: out, changes } = jitterNumbers(new Rng(seed), rows, { bound, mode });
          expect(changes.length).toBe(rows.length);
          rows.forEach((r, i) => {
            const to = out[i]?.x as number;
            const limit = relative ? bound * Math.abs(r.x) : bound;
            expect(Math.abs(to - r.x)).toBeLessThanOrEqual(limit);
            expect(out[i]?.s).toBe(r.s);
          });
        },
      ),
    );
  });

  it("actually moves values", () => {
    const { rows } = jitterNumbers(new Rng(1), [{ x: 100 }, { x: 200 }], { bound: 1 });
    expect(rows.map((r) => r.x)).not.toEqual([100, 200]);
  });
});

describe("duplicateRows", () => {
  it("dropping the listed copies restores the rows; each copy equals its source", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.integer() }), { maxLength: 15 }),
        fc.nat(10),
        fc.integer(),
        (rows, count, seed) => {
          const { rows: out, duplicates } = duplicateRows(new Rng(seed), rows, count);
          expect(out.length).toBe(rows.length + (rows.length === 0 ? 0 : count));
          expect(removeDuplicates(out, duplicates)).toEqual(rows);
          for (const d of duplicates) expect(out[d.index]).toEqual(rows[d.of]);
        },
      ),
    );
  });
});

describe("injectJunkLines", () => {
  it("deleting the listed lines gives back the text; header lines stay first", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[^\n]*$/), { maxLength: 10 }),
        fc.boolean(),
        fc.nat(8),
        fc.nat(2),
        fc.integer(),
        (lines, trailing, count, keepFirst, seed) => {
          const text = lines.join("\n") + (trailing ? "\n" : "");
          const out = injectJunkLines(new Rng(seed), text, { count, keepFirst });
          expect(out.inserted.length).toBe(count);
          expect(removeJunkLines(out.text, out.inserted)).toBe(text);
          const kept = Math.min(keepFirst, text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
          expect(out.text.split("\n").slice(0, kept)).toEqual(text.split("\n").slice(0, kept));
          for (const j of out.inserted) expect(out.text.split("\n")[j.line]).toBe(j.text);
        },
      ),
    );
  });
});
