import { UserError } from "../core/index.js";
import {
  getModelProvider,
  type ModelSettings,
  parseModelId,
  resolveApiKey,
  resolveBaseUrl,
} from "../models/index.js";
import type { GatewayApi } from "./types.js";

/** Where a trial's calls are forwarded, with the real key; both stay on the host. */
export interface Upstream {
  provider: string;
  model: string;
  /** With the API version segment, e.g. `https://api.openai.com/v1`; no trailing slash. */
  baseUrl: string;
  apiKey: string | undefined;
}

// The public endpoints of the providers whose SDKs default to them; any other provider needs a
// base URL (--base-url, or its environment variable), as it does for longhaul's own client.
const DEFAULT_BASE_URLS: Record<string, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
};

/** The upstream that longhaul's model configuration gives `provider:model`, as the model client would. */
export function resolveUpstream(
  modelId: string,
  settings: ModelSettings,
  env: NodeJS.ProcessEnv = process.env,
): Upstream {
  const { provider, model } = parseModelId(modelId);
  const p = getModelProvider(provider);
  const apiKey = resolveApiKey(p, settings, env);
  const baseUrl = resolveBaseUrl(p, settings, env) ?? DEFAULT_BASE_URLS[provider];
  if (baseUrl === undefined)
    throw new UserError(
      `provider ${provider}: the model gateway needs its base URL; pass --base-url or set ${p.baseUrlEnv.join(" or ")}`,
    );
  return { provider, model, baseUrl: baseUrl.replace(/\/+$/, ""), apiKey };
}

/** The header that carries the real key: Anthropic's Messages API reads x-api-key, the others a bearer token. */
export function upstreamAuthHeaders(
  api: GatewayApi | "count_tokens",
  key: string | undefined,
): Record<string, string> {
  if (key === undefined) return {};
  return api === "messages" || api === "count_tokens"
    ? { "x-api-key": key }
    : { authorization: `Bearer ${key}` };
}
