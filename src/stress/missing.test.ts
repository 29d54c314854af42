import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../core/rng.js";
import { injectMissing, isMissing, MISSING_MARKERS, restoreMissing } from "./missing.js";
import type { Row } from "./types.js";

const rows = fc.array(
  fc.record({
    a: fc.integer(),
    b: fc.string({ minLength: 1 }),
    c: fc.oneof(fc.double({ noNaN: true }), fc.constant(null)),
  }),
  { maxLength: 20 },
);

describe("injectMissing", () => {
  it("removes exactly round(rate × eligible) cells, lists them, and restoring gives the original", () => {
    fc.assert(
      fc.property(
        rows,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer(),
        (input: Row[], rate, seed) => {
          const eligible = input.reduce((n, r) => n + Object.values(r).filter((v) => v !== null).length, 0);
          const { rows: out, removed } = injectMissing(new Rng(seed), input, { rate });
          expect(removed.length).toBe(Math.round(rate * eligible));
          expect(restoreMissing(out, removed)).toEqual(input);
          for (const c of removed) expect(isMissing(out[c.row]?.[c.field])).toBe(true);
          // Cells not listed are untouched.
          const listed = new Set(removed.map((c) => `${c.row}/${c.field}`));
          input.forEach((r, i) => {
            for (const [k, v] of Object.entries(r))
              if (!listed.has(`${i}/${k}`)) expect(out[i]?.[k]).toEqual(v);
          });
        },
      ),
    );
  });

  it("uses only the markers asked for and only the fields asked for", () => {
    const input = Array.from({ length: 30 }, (_, i) => ({ a: i, b: `x${i}` }));
    const { rows: out, removed } = injectMissing(new Rng(5), input, {
      rate: 0.5,
      markers: ["absent"],
      fields: ["a"],
    });
    expect(removed.length).toBe(15);
    expect(removed.every((c) => c.field === "a" && c.marker === "absent")).toBe(true);
    expect(out.filter((r) => !("a" in r)).length).toBe(15);
    expect(MISSING_MARKERS).toContain("NA");
  });
});
