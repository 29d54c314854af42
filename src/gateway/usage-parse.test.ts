import { describe, expect, it } from "vitest";
import { usageFromJson } from "./usage-parse.js";

describe("usageFromJson", () => {
  it("holds an upstream's huge token count at the largest safe integer", () => {
    const u = usageFromJson("chat", { usage: { prompt_tokens: 3, completion_tokens: 1e20 } });
    expect(u?.inputTokens).toBe(3);
    expect(u?.outputTokens).toBe(Number.MAX_SAFE_INTEGER);
  });
});
