import { z } from "zod";
import { UserError } from "../core/index.js";
import { DEFAULT_MAX_ANSWER_MIB } from "./answer-cap.js";

export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** Per-model call settings. Every field has a safe default so `provider:model` alone works. */
export const modelSettingsSchema = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
  /** Tokens the model accepts; the pricing table's value, else 128k. Drives summarisation. */
  contextWindow: z.number().int().positive().optional(),
  baseUrl: z.url().optional(),
  apiKey: z.string().min(1).optional(),
  /** Use the streaming (SSE) endpoint; long answers then survive proxies that cut idle bodies. */
  stream: z.boolean().default(false),
  /** One attempt's wall-clock limit; a hung connection is cut here and retried. */
  timeoutSec: z.number().positive().default(600),
  maxRetries: z.number().int().nonnegative().default(6),
  retryBaseMs: z.number().nonnegative().default(1000),
  retryMaxMs: z.number().nonnegative().default(60_000),
  /**
   * The most of one answer's body read from the server, in MiB: past it the answer is cut and
   * counts as broken, so a server that streams without end cannot exhaust the host's memory.
   */
  maxAnswerMib: z.number().positive().default(DEFAULT_MAX_ANSWER_MIB),
});
export type ModelSettingsInput = z.input<typeof modelSettingsSchema>;
export type ModelSettings = z.output<typeof modelSettingsSchema>;

/** `--agent-opt` keys (snake_case strings) that map to settings. */
const OPTION_KEYS: Record<string, keyof ModelSettings> = {
  temperature: "temperature",
  max_output_tokens: "maxOutputTokens",
  reasoning_effort: "reasoningEffort",
  context_window: "contextWindow",
  base_url: "baseUrl",
  stream: "stream",
  timeout_sec: "timeoutSec",
  max_retries: "maxRetries",
  retry_base_ms: "retryBaseMs",
  retry_max_ms: "retryMaxMs",
  max_answer_mib: "maxAnswerMib",
};
const NUMERIC = new Set<string>([
  "temperature",
  "maxOutputTokens",
  "contextWindow",
  "timeoutSec",
  "maxRetries",
  "retryBaseMs",
  "retryMaxMs",
  "maxAnswerMib",
]);

/** Reads model settings out of free-form string options; unknown keys are left to the caller. */
export function settingsFromOptions(options: Record<string, string>): ModelSettings {
  const raw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) {
    const key = OPTION_KEYS[k];
    if (key === undefined) continue;
    if (NUMERIC.has(key)) {
      const num = Number(v);
      if (v.trim() === "" || !Number.isFinite(num))
        throw new UserError(`option ${k}=${v}: expected a number`);
      raw[key] = num;
    } else if (key === "stream") {
      if (v !== "true" && v !== "false") throw new UserError(`option ${k}=${v}: expected true or false`);
      raw[key] = v === "true";
    } else {
      raw[key] = v;
    }
  }
  return parseSettings(raw);
}

export function parseSettings(raw: unknown): ModelSettings {
  const r = modelSettingsSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new UserError(`model settings: ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
  }
  return r.data;
}

export const MODEL_OPTION_KEYS: readonly string[] = Object.keys(OPTION_KEYS);
