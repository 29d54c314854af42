import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { passKCurves } from "./group-metrics.js";
import {
  averageRanks,
  bootstrapMean,
  normalMean,
  paretoFrontier,
  passAtK,
  passHatK,
  quantileSorted,
  spearman,
  wilson,
} from "./stats.js";

describe("wilson", () => {
  // Reference values: Newcombe (1998), "Two-sided confidence intervals for the single
  // proportion", Table II, method 3 (score interval without continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])("%i/%i matches the published interval", (k, n, lo, hi) => {
    const r = wilson(k, n);
    expect(r.k).toBe(k);
    expect(r.n).toBe(n);
    expect(r.p).toBeCloseTo(k / n, 12);
    expect(r.lo).toBeCloseTo(lo, 4);
    expect(r.hi).toBeCloseTo(hi, 4);
  });

  it("is exact at the edges and empty over nothing", () => {
    expect(wilson(0, 7).lo).toBe(0);
    expect(wilson(7, 7).hi).toBe(1);
    expect(wilson(0, 0)).toEqual({ k: 0, n: 0, p: null, lo: null, hi: null });
  });
});

describe("pass@k and pass^k", () => {
  it("match the combinatorial definitions on a worked example (n=5, c=2)", () => {
    // pass@k = 1 − C(3,k)/C(5,k): k=1 → 1−3/5, k=2 → 1−3/10, k=3 → 1−1/10, k=4 → C(3,4)=0.
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12);
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    expect(passAtK(5, 2, 3)).toBeCloseTo(0.9, 12);
    expect(passAtK(5, 2, 4)).toBe(1);
    // pass^k = C(2,k)/C(5,k): k=1 → 2/5, k=2 → 1/10, k=3 → 0.
    expect(passHatK(5, 2, 1)).toBeCloseTo(0.4, 12);
    expect(passHatK(5, 2, 2)).toBeCloseTo(0.1, 12);
    expect(passHatK(5, 2, 3)).toBe(0);
    expect(() => passAtK(2, 1, 3)).toThrow(RangeError);
  });

  it("stays finite for large n", () => {
    expect(passAtK(1000, 1, 10)).toBeCloseTo(0.01, 12);
    expect(passHatK(1000, 1000, 10)).toBe(1);
  });

  it("averages over the tasks that have at least k attempts", () => {
    const { atK, hatK } = passKCurves([
      { n: 5, c: 2 },
      { n: 2, c: 2 },
    ]);
    expect(atK.map((p) => p.k)).toEqual([1, 2, 3, 4, 5]);
    expect(atK[0]?.value).toBeCloseTo((0.4 + 1) / 2, 12);
    expect(atK[0]?.tasks).toBe(2);
    expect(atK[1]?.value).toBeCloseTo((0.7 + 1) / 2, 12);
    expect(hatK[1]?.value).toBeCloseTo((0.1 + 1) / 2, 12);
    expect(atK[2]).toEqual({ k: 3, value: expect.closeTo(0.9, 12), tasks: 1 });
  });
});

describe("spearman", () => {
  it("averages tied ranks", () => {
    expect(averageRanks([10, 20, 20, 20, 5])).toEqual([2, 4, 4, 4, 1]);
  });

  it("matches a hand computation with ties", () => {
    // ranks x = [1, 2.5, 2.5, 4], y = [1, 3, 2, 4]; deviations from 2.5 give
    // Σdxdy = 4.5, Σdx² = 4.5, Σdy² = 5, so ρ = 4.5 / √22.5.
    expect(spearman([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(4.5 / Math.sqrt(22.5), 12);
  });

  it("is ±1 for monotone data and null when undefined", () => {
    expect(spearman([1, 2, 3, 4], [10, 100, 1000, 10000])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(spearman([1], [1])).toBeNull();
  });
});

describe("paretoFrontier", () => {
  it("keeps undominated points, cheapest first, and exact duplicates", () => {
    const ids = paretoFrontier([
      { id: "E", cost: 5, pass: 0.5 },
      { id: "C", cost: 3, pass: 0.2 },
      { id: "A", cost: 1, pass: 0.1 },
      { id: "B", cost: 2, pass: 0.3 },
      { id: "D", cost: 2, pass: 0.3 },
      { id: "F", cost: 5, pass: 0.4 },
      { id: "G", cost: 6, pass: 0.5 },
    ]);
    expect(ids).toEqual(["A", "B", "D", "E"]);
    expect(paretoFrontier([])).toEqual([]);
  });
});

describe("intervals on a mean", () => {
  const xs = Array.from({ length: 200 }, (_, i) => ((i * 37) % 101) / 100);

  it("bootstrap is reproducible from seed and label, and brackets the mean", () => {
    const a = bootstrapMean(xs, 1, "g", 500);
    expect(bootstrapMean(xs, 1, "g", 500)).toEqual(a);
    expect(bootstrapMean(xs, 2, "g", 500)).not.toEqual(a);
    expect(bootstrapMean(xs, 1, "h", 500)).not.toEqual(a);
    expect(a.method).toBe("bootstrap");
    expect(a.lo as number).toBeLessThan(a.value as number);
    expect(a.hi as number).toBeGreaterThan(a.value as number);
  });

  it("bootstrap and normal approximation agree for a large sample", () => {
    const big = Array.from({ length: 4000 }, (_, i) => ((i * 7919) % 1000) / 999);
    const b = bootstrapMean(big, 3, "x", 2000);
    const n = normalMean(big);
    expect(Math.abs((b.lo as number) - (n.lo as number))).toBeLessThan(0.003);
    expect(Math.abs((b.hi as number) - (n.hi as number))).toBeLessThan(0.003);
  });

  it("degenerates sensibly", () => {
    expect(bootstrapMean([0.5, 0.5, 0.5], 1, "c", 100)).toMatchObject({ value: 0.5, lo: 0.5, hi: 0.5 });
    expect(bootstrapMean([], 1, "e", 100)).toEqual({ value: null, lo: null, hi: null, n: 0, method: null });
    expect(bootstrapMean([0.3], 1, "o", 100)).toMatchObject({ value: 0.3, lo: null, method: null });
  });

  it("quantile interpolates linearly", () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 0)).toBe(1);
    expect(quantileSorted([1, 2, 3, 4], 1)).toBe(4);
  });
});

describe("properties", () => {
  it("Wilson brackets p; pass@k rises and pass^k falls with k; both equal c/n at k = 1", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.nat(), (n, seed) => {
        const c = seed % (n + 1);
        const r = wilson(c, n);
        expect(r.lo as number).toBeLessThanOrEqual((r.p as number) + 1e-12);
        expect(r.hi as number).toBeGreaterThanOrEqual((r.p as number) - 1e-12);
        expect(passAtK(n, c, 1)).toBeCloseTo(c / n, 12);
        expect(passHatK(n, c, 1)).toBeCloseTo(c / n, 12);
        for (let k = 2; k <= n; k++) {
          expect(passAtK(n, c, k)).toBeGreaterThanOrEqual(passAtK(n, c, k - 1) - 1e-12);
          expect(passHatK(n, c, k)).toBeLessThanOrEqual(passHatK(n, c, k - 1) + 1e-12);
        }
      }),
    );
  });

  it("the frontier sweep agrees with the quadratic definition", () => {
    const point = fc.record({ cost: fc.integer({ min: 0, max: 8 }), pass: fc.integer({ min: 0, max: 8 }) });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 25 }), (raw) => {
        const pts = raw.map((p, i) => ({ id: `p${i}`, cost: p.cost, pass: p.pass / 8 }));
        const dominated = (a: (typeof pts)[number]) =>
          pts.some((b) => b.cost <= a.cost && b.pass >= a.pass && (b.cost < a.cost || b.pass > a.pass));
        const expected = pts.filter((a) => !dominated(a)).map((a) => a.id);
        expect([...paretoFrontier(pts)].sort()).toEqual([...expected].sort());
      }),
    );
  });
});
