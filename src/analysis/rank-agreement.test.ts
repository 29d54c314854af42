import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareRankings,
  kendallTauB,
  matchKey,
  rankAgreement,
  referenceAgreement,
} from "./rank-agreement.js";
import { spearman } from "./stats.js";

describe("kendallTauB", () => {
  it("matches a hand count with ties on both sides", () => {
    // Pairs: 3 concordant, 1 discordant, 1 tied in x only, 1 tied in y only → 2 / √(5·5).
    expect(kendallTauB([1, 2, 2, 3], [1, 3, 2, 2])).toBeCloseTo(0.4, 12);
  });

  it("is ±1 for the same and reversed orders, null for a constant side", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { minLength: 2, maxLength: 30 }), (xs) => {
        expect(kendallTauB(xs, xs)).toBeCloseTo(1, 12);
        expect(
          kendallTauB(
            xs,
            xs.map((x) => -x),
          ),
        ).toBeCloseTo(-1, 12);
      }),
    );
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNull();
  });

  it("equals a quadratic recount on random data", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })), {
          minLength: 2,
          maxLength: 25,
        }),
        (pairs) => {
          const xs = pairs.map((p) => p[0]);
          const ys = pairs.map((p) => p[1]);
          let c = 0;
          let d = 0;
          let tx = 0;
          let ty = 0;
          for (let i = 0; i < xs.length; i++)
            for (let j = 0; j < i; j++) {
              const s = ((xs[i] as number) - (xs[j] as number)) * ((ys[i] as number) - (ys[j] as number));
              if (s > 0) c++;
              if (s < 0) d++;
              if (xs[i] === xs[j]) tx++;
              if (ys[i] === ys[j]) ty++;
            }
          const n0 = (xs.length * (xs.length - 1)) / 2;
          const expected = n0 === tx || n0 === ty ? null : (c - d) / Math.sqrt((n0 - tx) * (n0 - ty));
          const got = kendallTauB(xs, ys);
          if (expected === null) expect(got).toBeNull();
          else expect(got).toBeCloseTo(expected, 12);
        },
      ),
    );
  });
});

// The LHTB table (17 models): Pass@1 at R ≥ 0.95, at R = 1.0 (percent) and mean R.
const PASS095 = [28.3, 15.2, 15.2, 6.5, 6.5, 6.5, 4.3, 4.3, 4.3, 4.3, 4.3, 2.2, 2.2, 2.2, 2.2, 0, 0];
const PASS100 = [19.6, 8.7, 10.9, 6.5, 4.3, 0, 0, 0, 0, 0, 2.2, 0, 0, 0, 2.2, 0, 0];
const MEAN_R = [
  0.51, 0.45, 0.44, 0.39, 0.37, 0.31, 0.3, 0.29, 0.28, 0.27, 0.21, 0.32, 0.31, 0.29, 0.27, 0.25, 0.1,
];

describe("rankAgreement", () => {
  const a = rankAgreement(PASS095, MEAN_R, { seed: 7, samples: 1000, label: "lhtb" });

  it("gives ρ and τ-b with intervals that contain them", () => {
    expect(a.n).toBe(17);
    expect(a.spearman.value).toBeCloseTo(spearman(PASS095, MEAN_R) as number, 12);
    expect(a.kendall.value).toBeCloseTo(kendallTauB(PASS095, MEAN_R) as number, 12);
    for (const i of [a.spearman, a.kendall, a.analytic.spearman, a.analytic.kendall]) {
      expect(i.lo as number).toBeLessThan(i.value as number);
      expect(i.hi as number).toBeGreaterThan(i.value as number);
      expect(i.lo as number).toBeGreaterThanOrEqual(-1);
      expect(i.hi as number).toBeLessThanOrEqual(1);
    }
    expect(a.usedSamples).toBeGreaterThan(900);
  });

  it("on the published table, ρ at R = 1.0 is lower than at R ≥ 0.95 (more ties at zero)", () => {
    const b = rankAgreement(PASS100, MEAN_R, { seed: 7, samples: 0, label: "lhtb" });
    expect(b.spearman.value as number).toBeLessThan(a.spearman.value as number);
    expect(b.spearman.lo).toBeNull();
  });

  it("is reproducible from the seed and changes with it", () => {
    expect(rankAgreement(PASS095, MEAN_R, { seed: 7, samples: 1000, label: "lhtb" })).toEqual(a);
    const other = rankAgreement(PASS095, MEAN_R, { seed: 8, samples: 1000, label: "lhtb" });
    expect(other.spearman.lo).not.toEqual(a.spearman.lo);
    expect(other.spearman.value).toEqual(a.spearman.value);
  });

  it("gives no interval with too few items", () => {
    const r = rankAgreement([1, 2], [2, 1], { seed: 1, samples: 1000, label: "x" });
    expect(r.spearman).toEqual({ value: -1, lo: null, hi: null });
    expect(r.analytic.kendall.lo).toBeNull();
  });
});

describe("matching two sources", () => {
  it("matches model names across spellings and providers", () => {
    expect(matchKey("openai:GPT_5.5")).toBe(matchKey("gpt 5.5"));
    expect(matchKey("Grok 4.5")).toBe("grok-4.5");
  });

  it("pairs items and lists the unmatched ones on each side", () => {
    const c = compareRankings(
      "mean R",
      new Map([
        ["xai:grok-4.5", 0.5],
        ["gpt-5.5", 0.4],
        ["local-only", 0.1],
        ["kimi-k2.6", 0.3],
      ]),
      new Map([
        ["Grok 4.5", 0.51],
        ["GPT-5.5", 0.44],
        ["Kimi K2.6", 0.25],
        ["paper-only", 0.2],
      ]),
      { seed: 1, samples: 0, label: "t" },
    );
    expect(c.matched).toEqual(["xai:grok-4.5", "gpt-5.5", "kimi-k2.6"]);
    expect(c.onlyA).toEqual(["local-only"]);
    expect(c.onlyB).toEqual(["paper-only"]);
    expect(c.agreement.spearman.value).toBeCloseTo(1, 12);
  });

  it("ranks summaries by model when models are unique, by label otherwise", () => {
    const g = (label: string, model: string, p: number, m: number) => ({
      label,
      key: { model },
      pass095: { p },
      pass100: { p: 0 },
      meanReward: { value: m },
    });
    const local = [
      g("terminus / a", "a", 0.2, 0.5),
      g("terminus / b", "b", 0.1, 0.4),
      g("terminus / c", "c", 0, 0.3),
    ];
    const paper = [
      g("external / A", "A", 0.3, 0.3),
      g("external / B", "B", 0.2, 0.4),
      g("external / C", "C", 0.1, 0.5),
    ];
    const out = referenceAgreement(local, paper, { seed: 1, samples: 0, label: "p" });
    expect(out.map((c) => c.metric)).toEqual(["Pass@1 R≥0.95", "Pass@1 R=1", "mean R"]);
    expect(out[0]?.agreement.spearman.value).toBeCloseTo(1, 12);
    expect(out[2]?.agreement.spearman.value).toBeCloseTo(-1, 12);
    // All pass100 values are equal: ρ is undefined, not 0.
    expect(out[1]?.agreement.spearman.value).toBeNull();
  });
});
