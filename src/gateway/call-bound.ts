import type { PriceEntry } from "../models/index.js";
import type { CallSpend } from "./budget.js";
import type { GatewayApi } from "./types.js";

/** What the gateway knows of the trial's model when it bounds a call: its window and prices. */
export interface CallBoundModel {
  /** Input plus output tokens one answer can hold. */
  contextWindow: number;
  price: PriceEntry | null;
}

/** The request's cap on output tokens per answer, in whichever field its API names it. */
function outputCap(api: GatewayApi, body: Record<string, unknown>): number | undefined {
  const keys =
    api === "responses"
      ? ["max_output_tokens"]
      : api === "chat"
        ? ["max_completion_tokens", "max_tokens"]
        : ["max_tokens"];
  for (const k of keys) {
    const v = body[k];
    if (typeof v === "number" && Number.isFinite(v) && v > 0) return Math.ceil(v);
  }
  return undefined;
}

/**
 * The most one call can spend, known before it is sent, so calls in flight can be bounded while
 * their usage is still unknown. A prompt never has more tokens than its request has bytes (every
 * token of a byte-level tokenizer covers at least one byte; the JSON around the messages more than
 * pays for the per-message markers), and an answer never more than the request's output cap, nor
 * input and output together more than the context window. A Responses call that continues a stored
 * conversation (`previous_response_id`, `conversation`) has a prompt the body does not show: its
 * prompt is bounded by the window alone. Chat's `n` asks for that many answers.
 */
export function worstCaseSpend(
  api: GatewayApi,
  body: Record<string, unknown>,
  bodyBytes: number,
  model: CallBoundModel,
): CallSpend {
  const ctx = model.contextWindow;
  const hidden = api === "responses" && (body.previous_response_id != null || body.conversation != null);
  const input = hidden ? ctx : Math.min(ctx, bodyBytes);
  const n = api === "chat" && typeof body.n === "number" && body.n > 1 ? Math.ceil(body.n) : 1;
  const output = n * Math.min(ctx, outputCap(api, body) ?? ctx);
  const tokens = Math.min(input + output, n * ctx);
  const p = model.price;
  // Written cache can cost more than plain input (Anthropic's is 1.25×), so the dearer one bounds it.
  const usd =
    p === null ? 0 : (input * Math.max(p.input, p.cache_write ?? p.input) + output * p.output) / 1e6;
  return { tokens, usd };
}
