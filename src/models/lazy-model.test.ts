import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { lazyLanguageModel } from "./lazy-model.js";
import { getModelProvider } from "./providers.js";
import { parseSettings } from "./settings.js";

function fakeModel(calls: string[]): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "fake.chat",
    modelId: "m",
    supportedUrls: { "image/*": [/^https:/] },
    doGenerate: async () => {
      calls.push("generate");
      throw new Error("generate called");
    },
    doStream: async () => {
      calls.push("stream");
      throw new Error("stream called");
    },
  };
}

const OPTIONS: LanguageModelV3CallOptions = { prompt: [] };

describe("lazyLanguageModel", () => {
  it("loads the real model once, at the first call, and forwards every call to it", async () => {
    const calls: string[] = [];
    let loads = 0;
    const model = lazyLanguageModel("fake.chat", "m", async () => {
      loads++;
      return fakeModel(calls);
    });
    expect(model).toMatchObject({ specificationVersion: "v3", provider: "fake.chat", modelId: "m" });
    expect(loads).toBe(0);
    await expect(model.doGenerate(OPTIONS)).rejects.toThrow("generate called");
    await expect(model.doStream(OPTIONS)).rejects.toThrow("stream called");
    expect(await model.supportedUrls).toEqual({ "image/*": [/^https:/] });
    expect(calls).toEqual(["generate", "stream"]);
    expect(loads).toBe(1);
  });

  it("the built-in providers' models name the SDK model they stand for and check settings at once", () => {
    const s = parseSettings({});
    const env = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", LONGHAUL_BASE_URL: "http://127.0.0.1:9/v1" };
    const names = ["openai-compatible", "openai", "anthropic"].map((p) => {
      const m = getModelProvider(p).languageModel("some-model", s, env);
      return typeof m === "string" ? m : `${m.provider} ${m.modelId}`;
    });
    expect(names).toEqual([
      "compat.chat some-model",
      "openai.chat some-model",
      "anthropic.messages some-model",
    ]);
    expect(() => getModelProvider("anthropic").languageModel("m", s, {})).toThrow(/ANTHROPIC_API_KEY/);
  });
});
