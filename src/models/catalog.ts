import { defaultPricingPath, loadPricing } from "./pricing.js";
import { listModelProviders } from "./providers.js";

export interface ProviderInfo {
  name: string;
  description: string;
  api_key_env: string[];
  api_key_required: boolean;
  /** Which of `api_key_env` is set (null: none). */
  api_key_from: string | null;
  base_url_env: string[];
  base_url: string | null;
  ready: boolean;
}

export interface PricedModel {
  id: string;
  input_per_mtok: number;
  output_per_mtok: number;
  cached_input_per_mtok: number;
  cache_write_per_mtok: number;
  context_window: number | null;
  source: string;
}

export interface ModelCatalog {
  pricing_file: string;
  providers: ProviderInfo[];
  models: PricedModel[];
}

/** What `longhaul models` shows: providers with their credentials status, and every priced model. */
export function modelCatalog(
  env: NodeJS.ProcessEnv = process.env,
  pricingPath = defaultPricingPath(env),
): ModelCatalog {
  const table = loadPricing(pricingPath);
  const providers = listModelProviders().map((p): ProviderInfo => {
    const keyFrom = p.apiKeyEnv.find((n) => (env[n] ?? "") !== "") ?? null;
    const urlEnv = p.baseUrlEnv.find((n) => (env[n] ?? "") !== "");
    const baseUrl = urlEnv === undefined ? null : (env[urlEnv] ?? null);
    return {
      name: p.name,
      description: p.description,
      api_key_env: [...p.apiKeyEnv],
      api_key_required: p.requiresApiKey,
      api_key_from: keyFrom,
      base_url_env: [...p.baseUrlEnv],
      base_url: baseUrl,
      ready: (!p.requiresApiKey || keyFrom !== null) && (!p.requiresBaseUrl || baseUrl !== null),
    };
  });
  const models = Object.entries(table.entries)
    .map(
      ([id, e]): PricedModel => ({
        id,
        input_per_mtok: e.input,
        output_per_mtok: e.output,
        cached_input_per_mtok: e.cached_input ?? e.input,
        cache_write_per_mtok: e.cache_write ?? e.input,
        context_window: e.context_window ?? null,
        source: table.sources[id] ?? "default",
      }),
    )
    .sort((a, b) => a.id.localeCompare(b.id));
  return { pricing_file: pricingPath, providers, models };
}
