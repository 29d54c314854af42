import { UserError } from "../core/index.js";

export interface ModelId {
  provider: string;
  model: string;
}

/** `provider:model`; the model part may itself contain colons (e.g. `qwen3:8b` on Ollama). */
export function parseModelId(id: string): ModelId {
  const i = id.indexOf(":");
  if (i <= 0 || i === id.length - 1) {
    throw new UserError(
      `model "${id}": expected provider:model, e.g. openai:gpt-4.1 or openai-compatible:qwen3-coder`,
    );
  }
  return { provider: id.slice(0, i), model: id.slice(i + 1) };
}

export function formatModelId(m: ModelId): string {
  return `${m.provider}:${m.model}`;
}
