import { describe, expect, it } from "vitest";
import { binaryAgreement, cohenKappa } from "../../src/analysis/agreement.js";

describe("Cohen's κ of a 2×2 table", () => {
  it("matches textbook values", () => {
    // 50 items: 20 yes by both, 5 yes by A alone, 10 by B alone, 15 no by both.
    // pₒ = 35/50 = 0.7; A says yes to 0.5, B to 0.6: pₑ = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.2/0.5 = 0.4.
    expect(cohenKappa({ both: 20, onlyA: 5, onlyB: 10, neither: 15 })).toBeCloseTo(0.4, 12);
    // 100 items: 45 / 15 / 25 / 15. pₒ = 0.6; pₑ = 0.6·0.7 + 0.4·0.3 = 0.54; κ = 0.06/0.46.
    expect(cohenKappa({ both: 45, onlyA: 15, onlyB: 25, neither: 15 })).toBeCloseTo(0.06 / 0.46, 12);
    // Same pₒ, marginals far apart: 25 / 35 / 5 / 35. pₑ = 0.6·0.3 + 0.4·0.7 = 0.46; κ = 0.14/0.54.
    expect(cohenKappa({ both: 25, onlyA: 35, onlyB: 5, neither: 35 })).toBeCloseTo(0.14 / 0.54, 12);
  });

  it("is 1 for full agreement, −1 for full disagreement with balanced marginals, 0 at chance", () => {
    expect(cohenKappa({ both: 3, onlyA: 0, onlyB: 0, neither: 7 })).toBe(1);
    expect(cohenKappa({ both: 0, onlyA: 5, onlyB: 5, neither: 0 })).toBe(-1);
    // Independent raters: every cell is the product of the marginals.
    expect(cohenKappa({ both: 1, onlyA: 1, onlyB: 1, neither: 1 })).toBe(0);
  });

  it("is 1 when chance agreement is 1 (both raters put every item in one class), null for no items", () => {
    expect(cohenKappa({ both: 0, onlyA: 0, onlyB: 0, neither: 28 })).toBe(1);
    expect(cohenKappa({ both: 28, onlyA: 0, onlyB: 0, neither: 0 })).toBe(1);
    expect(cohenKappa({ both: 0, onlyA: 0, onlyB: 0, neither: 0 })).toBeNull();
  });
});

describe("binaryAgreement of two sets over items 0…n−1", () => {
  it("counts the table, raw agreement, chance agreement and κ", () => {
    const a = binaryAgreement(10, [0, 1, 2], [2, 3, 3]);
    expect(a.table).toEqual({ both: 1, onlyA: 2, onlyB: 1, neither: 6 });
    expect(a.raw).toBeCloseTo(0.7, 12);
    // A in 0.3, B in 0.2: pₑ = 0.06 + 0.56 = 0.62; κ = 0.08/0.38.
    expect(a.expected).toBeCloseTo(0.62, 12);
    expect(a.kappa).toBeCloseTo(0.08 / 0.38, 12);
  });

  it("empty sets over a run agree fully; no items has no figures; items out of range are refused", () => {
    expect(binaryAgreement(5, [], [])).toMatchObject({ raw: 1, expected: 1, kappa: 1 });
    expect(binaryAgreement(0, [], [])).toMatchObject({ n: 0, raw: null, kappa: null });
    expect(() => binaryAgreement(5, [5], [])).toThrow(/item 5 is not one of 0…4/);
    expect(() => binaryAgreement(5, [], [-1])).toThrow(RangeError);
  });
});
