import { describe, expect, it } from "vitest";
import { decimalsOf, recoverCount } from "./recover-counts.js";

const pct = (value: number, decimals = 1) => ({ value, decimals, unit: "pct" as const });

describe("recoverCount", () => {
  it.each([
    [28.3, 13],
    [19.6, 9],
    [15.2, 7],
    [8.7, 4],
    [4.3, 2],
    [2.2, 1],
    [0, 0],
  ])("%f%% of 46 tasks is %i/46 and reproduces", (value, k) => {
    const r = recoverCount(pct(value), 46);
    expect(r.k).toBe(k);
    expect(r.candidates).toEqual([k]);
    expect(r.reproduces).toBe(true);
  });

  it("flags a printed rate no whole count gives", () => {
    // 2/46 = 4.35%, 3/46 = 6.52%: nothing prints as 5.0%.
    const r = recoverCount(pct(5.0), 46);
    expect(r.k).toBe(2);
    expect(r.candidates).toEqual([]);
    expect(r.reproduces).toBe(false);
  });

  it("depends on the printed precision", () => {
    // 4.35 at two decimals is 2/46 = 4.3478 → 4.35; 4.34 is not.
    expect(recoverCount(pct(4.35, 2), 46).reproduces).toBe(true);
    expect(recoverCount(pct(4.34, 2), 46).reproduces).toBe(false);
    // At no decimals 4% is ambiguous-free over 46 (2/46 rounds to 4) …
    expect(recoverCount(pct(4, 0), 46).candidates).toEqual([2]);
    // … and over 1000 trials one decimal allows several counts.
    expect(recoverCount(pct(4.3), 1000).candidates).toEqual([43]);
    expect(recoverCount(pct(4.3), 2000).candidates).toEqual([85, 86, 87]);
  });

  it("reads fractions too", () => {
    const r = recoverCount({ value: 0.283, decimals: 3, unit: "fraction" }, 46);
    expect([r.k, r.reproduces]).toEqual([13, true]);
  });
});

describe("decimalsOf", () => {
  it("counts printed decimals", () => {
    expect(decimalsOf("28.30")).toBe(2);
    expect(decimalsOf("28.3%")).toBe(1);
    expect(decimalsOf("4")).toBe(0);
    expect(decimalsOf(String(0.1))).toBe(1);
  });
});
