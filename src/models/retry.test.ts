import {
  APICallError,
  InvalidResponseDataError,
  JSONParseError,
  NoOutputGeneratedError,
  TypeValidationError,
} from "ai";
import { describe, expect, it } from "vitest";
import { UserError } from "../core/index.js";
import { getModelProvider } from "./providers.js";
import { backoffMs, classifyFailure } from "./retry.js";
import { parseSettings } from "./settings.js";

const apiError = (statusCode: number, headers?: Record<string, string>) =>
  new APICallError({
    message: "x",
    url: "http://x",
    requestBodyValues: {},
    statusCode,
    ...(headers ? { responseHeaders: headers } : {}),
  });

describe("retry classification", () => {
  it("retries 429, 5xx, timeouts and cut connections but not other 4xx", () => {
    expect(classifyFailure(apiError(429), false).retryable).toBe(true);
    expect(classifyFailure(apiError(502), false).retryable).toBe(true);
    expect(classifyFailure(apiError(400), false).retryable).toBe(false);
    expect(classifyFailure(apiError(401), false).retryable).toBe(false);
    expect(classifyFailure(new Error("whatever"), true)).toMatchObject({
      retryable: true,
      reason: "timeout",
    });
    const reset = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } });
    expect(classifyFailure(reset, false)).toMatchObject({ retryable: true, reason: "ECONNRESET" });
    expect(classifyFailure(new Error("bug"), false).retryable).toBe(false);
  });

  it("retries the SDK's malformed-answer errors, recognised without loading the SDK", () => {
    // The errors come from the SDK's own package; retry.ts recognises them from @ai-sdk/provider
    // and the SDK's error marker, so the check must hold for the SDK's instances.
    for (const e of [
      new NoOutputGeneratedError(),
      new InvalidResponseDataError({ data: {} }),
      new JSONParseError({ text: "{", cause: new Error("x") }),
      new TypeValidationError({ value: 1, cause: new Error("x") }),
    ]) {
      expect(classifyFailure(e, false), e.name).toEqual({ retryable: true, reason: "malformed answer" });
    }
    const lookalike = Object.assign(new Error("no output"), { name: "AI_NoOutputGeneratedError" });
    expect(classifyFailure(lookalike, false).retryable).toBe(false);
  });

  it("backs off exponentially within the cap and honours Retry-After", () => {
    const policy = { maxRetries: 5, baseMs: 100, maxMs: 1000 };
    const f = classifyFailure(apiError(500), false);
    expect(backoffMs(0, policy, f, () => 1)).toBe(100);
    expect(backoffMs(2, policy, f, () => 0)).toBe(200);
    expect(backoffMs(10, policy, f, () => 1)).toBe(1000);
    const after = classifyFailure(apiError(429, { "retry-after": "0.7" }), false);
    expect(backoffMs(0, policy, after, () => 0)).toBe(700);
  });
});

describe("provider configuration errors", () => {
  it("asks for a base URL for openai-compatible and a key for openai", () => {
    const s = parseSettings({});
    expect(() => getModelProvider("openai-compatible").languageModel("m", s, {})).toThrow(/--base-url/);
    expect(() => getModelProvider("openai").languageModel("m", s, {})).toThrow(/OPENAI_API_KEY/);
    expect(() => getModelProvider("nope")).toThrow(UserError);
    expect(
      getModelProvider("anthropic").providerOptions(parseSettings({ reasoningEffort: "minimal" })),
    ).toEqual({
      anthropic: { effort: "low" },
    });
  });
});
