import type { LanguageModel } from "ai";
import { UserError } from "../core/index.js";
import { answerCapBytes } from "./answer-cap.js";
import { lazyLanguageModel } from "./lazy-model.js";
import { type ModelId, parseModelId } from "./model-id.js";
import type { ModelSettings } from "./settings.js";
import { answerShapeFetch } from "./sse-guard.js";

type ProviderOptions = Record<string, Record<string, string | number | boolean>>;

/** One way of reaching models. Every provider passes the same conformance test. */
export interface ModelProvider {
  readonly name: string;
  readonly description: string;
  /** Environment variables consulted for the API key, in order. */
  readonly apiKeyEnv: readonly string[];
  /** Environment variables consulted for the base URL, in order. */
  readonly baseUrlEnv: readonly string[];
  readonly requiresApiKey: boolean;
  readonly requiresBaseUrl: boolean;
  languageModel(model: string, settings: ModelSettings, env?: NodeJS.ProcessEnv): LanguageModel;
  providerOptions(settings: ModelSettings): ProviderOptions | undefined;
}

function firstEnv(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  for (const n of names) {
    const v = env[n];
    if (v !== undefined && v !== "") return v;
  }
  return undefined;
}

export function resolveApiKey(
  p: ModelProvider,
  s: ModelSettings,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const key = s.apiKey ?? firstEnv(env, p.apiKeyEnv);
  if (key === undefined && p.requiresApiKey) {
    throw new UserError(`provider ${p.name}: no API key; set ${p.apiKeyEnv.join(" or ")}`);
  }
  return key;
}

export function resolveBaseUrl(
  p: ModelProvider,
  s: ModelSettings,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const url = s.baseUrl ?? firstEnv(env, p.baseUrlEnv);
  if (url === undefined && p.requiresBaseUrl) {
    throw new UserError(
      `provider ${p.name}: no base URL; pass --base-url or set ${p.baseUrlEnv.join(" or ")} (e.g. http://localhost:8000/v1)`,
    );
  }
  return url;
}

const openaiCompatible: ModelProvider = {
  name: "openai-compatible",
  description: "any OpenAI chat-completions endpoint (vLLM, Ollama, llama.cpp, OpenRouter, DeepSeek…)",
  apiKeyEnv: ["LONGHAUL_API_KEY", "OPENAI_API_KEY"],
  baseUrlEnv: ["LONGHAUL_BASE_URL", "OPENAI_BASE_URL"],
  requiresApiKey: false,
  requiresBaseUrl: true,
  languageModel(model, s, env = process.env) {
    const apiKey = resolveApiKey(this, s, env);
    const baseURL = resolveBaseUrl(this, s, env) ?? "";
    return lazyLanguageModel("compat.chat", model, async () =>
      (await import("@ai-sdk/openai-compatible"))
        .createOpenAICompatible({
          name: "compat",
          baseURL,
          includeUsage: true,
          fetch: answerShapeFetch("chat", answerCapBytes(s.maxAnswerMib)),
          ...(apiKey === undefined ? {} : { apiKey }),
        })
        .chatModel(model),
    );
  },
  providerOptions(s) {
    return s.reasoningEffort === undefined ? undefined : { compat: { reasoningEffort: s.reasoningEffort } };
  },
};

const openai: ModelProvider = {
  name: "openai",
  description: "OpenAI (chat-completions API)",
  apiKeyEnv: ["OPENAI_API_KEY", "LONGHAUL_API_KEY"],
  baseUrlEnv: ["OPENAI_BASE_URL"],
  requiresApiKey: true,
  requiresBaseUrl: false,
  languageModel(model, s, env = process.env) {
    const apiKey = resolveApiKey(this, s, env);
    const baseURL = resolveBaseUrl(this, s, env);
    // The chat endpoint rather than Responses: one wire format shared with every compatible server.
    return lazyLanguageModel("openai.chat", model, async () =>
      (await import("@ai-sdk/openai"))
        .createOpenAI({
          fetch: answerShapeFetch("chat", answerCapBytes(s.maxAnswerMib)),
          ...(apiKey === undefined ? {} : { apiKey }),
          ...(baseURL ? { baseURL } : {}),
        })
        .chat(model),
    );
  },
  providerOptions(s) {
    return s.reasoningEffort === undefined ? undefined : { openai: { reasoningEffort: s.reasoningEffort } };
  },
};

const ANTHROPIC_EFFORT: Record<string, string | undefined> = {
  minimal: "low",
  low: "low",
  medium: "medium",
  high: "high",
  xhigh: "xhigh",
  max: "max",
};

const anthropic: ModelProvider = {
  name: "anthropic",
  description: "Anthropic (messages API)",
  apiKeyEnv: ["ANTHROPIC_API_KEY", "LONGHAUL_API_KEY"],
  baseUrlEnv: ["ANTHROPIC_BASE_URL"],
  requiresApiKey: true,
  requiresBaseUrl: false,
  languageModel(model, s, env = process.env) {
    const apiKey = resolveApiKey(this, s, env);
    const baseURL = resolveBaseUrl(this, s, env);
    return lazyLanguageModel("anthropic.messages", model, async () =>
      (await import("@ai-sdk/anthropic")).createAnthropic({
        fetch: answerShapeFetch("messages", answerCapBytes(s.maxAnswerMib)),
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(baseURL ? { baseURL } : {}),
      })(model),
    );
  },
  providerOptions(s) {
    const effort = s.reasoningEffort === undefined ? undefined : ANTHROPIC_EFFORT[s.reasoningEffort];
    return effort === undefined ? undefined : { anthropic: { effort } };
  },
};

const registry = new Map<string, ModelProvider>();

export function registerModelProvider(p: ModelProvider): void {
  registry.set(p.name, p);
}

export function getModelProvider(name: string): ModelProvider {
  const p = registry.get(name);
  if (!p) {
    throw new UserError(`unknown model provider "${name}"; known: ${[...registry.keys()].join(", ")}`);
  }
  return p;
}

/**
 * A `provider:model` id whose provider is registered; fails with one line otherwise. Given the
 * settings a call would use, also fails as that call would on a missing API key or base URL, so
 * a command can refuse before it starts work that every call would fail.
 */
export function checkModelId(
  id: string,
  callSettings?: ModelSettings,
  env: NodeJS.ProcessEnv = process.env,
): ModelId {
  const parsed = parseModelId(id);
  const provider = getModelProvider(parsed.provider);
  if (callSettings !== undefined) {
    resolveApiKey(provider, callSettings, env);
    resolveBaseUrl(provider, callSettings, env);
  }
  return parsed;
}

export function listModelProviders(): ModelProvider[] {
  return [...registry.values()];
}

for (const p of [openaiCompatible, openai, anthropic]) registerModelProvider(p);
