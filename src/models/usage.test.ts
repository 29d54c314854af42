import { describe, expect, it } from "vitest";
import { addTokens, tokenCount, tokensFromSdk, zeroTokens } from "./usage.js";

describe("token counts from a model server", () => {
  it("holds a huge count at the largest safe integer and drops unusable ones", () => {
    expect(tokenCount(1e20)).toBe(Number.MAX_SAFE_INTEGER);
    expect(tokenCount(12.4)).toBe(12);
    for (const v of [-5, Number.NaN, Number.POSITIVE_INFINITY, "7", null])
      expect(tokenCount(v)).toBeUndefined();
    const t = tokensFromSdk({ inputTokens: 10, outputTokens: 1e20, totalTokens: undefined } as never);
    expect(t.outputTokens).toBe(Number.MAX_SAFE_INTEGER);
    expect(Number.isSafeInteger(addTokens(t, t).outputTokens)).toBe(true);
    expect(addTokens(zeroTokens(), zeroTokens())).toEqual(zeroTokens());
  });
});
