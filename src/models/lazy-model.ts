import type { LanguageModelV3 } from "@ai-sdk/provider";

/**
 * A language model whose SDK loads on its first call. The model SDKs and the `ai` package behind
 * them cost about 0.2 s of CPU to load, and every `run`, `worker` and `task` process reaches the
 * providers (to check `--model` ids) while most jobs call no model at all. The SDK's own model
 * is made once, at the first call, with the settings the provider resolved when this was made
 * (a missing key or base URL still fails at once, where the provider resolves them).
 */
export function lazyLanguageModel(
  provider: string,
  modelId: string,
  load: () => Promise<LanguageModelV3>,
): LanguageModelV3 {
  let model: Promise<LanguageModelV3> | undefined;
  const real = (): Promise<LanguageModelV3> => {
    model ??= load();
    return model;
  };
  return {
    specificationVersion: "v3",
    provider,
    modelId,
    // The SDK awaits this before it sends a prompt with files; a promise is allowed.
    get supportedUrls() {
      return real().then((m) => m.supportedUrls);
    },
    doGenerate: async (options) => (await real()).doGenerate(options),
    doStream: async (options) => (await real()).doStream(options),
  };
}
