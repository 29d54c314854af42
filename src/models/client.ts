import { APICallError, InvalidResponseDataError } from "@ai-sdk/provider";
import type { LanguageModel, LanguageModelUsage, ModelMessage, ToolSet } from "ai";
import { errorMessage, InfraError } from "../core/index.js";
import { findAnswerTooLarge } from "./answer-cap.js";
import { parseModelId } from "./model-id.js";
import { costOf, findPrice, loadPricing, type PriceEntry, type PricingTable } from "./pricing.js";
import { getModelProvider, type ModelProvider } from "./providers.js";
import { backoffMs, classifyFailure, sleep } from "./retry.js";
import type { ModelSettings } from "./settings.js";
import { type CallRecord, sumCalls, tokensFromSdk, type UsageTotals } from "./usage.js";

export const DEFAULT_CONTEXT_WINDOW = 128_000;

/**
 * Response header in which a model gateway reports the milliseconds an answer lost to its own
 * upstream retries; counted as retry time (kept out of the agent's budget), not model time.
 */
export const RETRY_MS_HEADER = "x-longhaul-retry-ms";

function gatewayRetryMs(headers: Record<string, string> | undefined): number {
  const v = Number(headers?.[RETRY_MS_HEADER]);
  return Number.isFinite(v) && v > 0 ? v : 0;
}

export interface ModelRequest {
  system?: string;
  messages: ModelMessage[];
  /** Tools without `execute`: the caller runs them and sends the results back. */
  tools?: ToolSet;
  /** "none" keeps the tools declared (history may contain calls) but asks for plain text. */
  toolChoice?: "auto" | "none";
  signal?: AbortSignal;
}

export interface ToolCallOut {
  id: string;
  name: string;
  input: unknown;
  /** Unparsable arguments or an unknown tool. */
  invalid: boolean;
  error?: string;
}

export interface ModelResponse {
  text: string;
  toolCalls: ToolCallOut[];
  /** Messages to append to the conversation: the assistant turn with its tool calls, no results. */
  responseMessages: ModelMessage[];
  finishReason: string;
  record: CallRecord;
}

/** A model call failed for good: a non-retryable status, or retries exhausted. */
export class ModelCallError extends InfraError {
  readonly attempts: number;
  readonly retrySec: number;
  /** The last HTTP status, when the server answered. */
  readonly statusCode: number | undefined;
  constructor(message: string, attempts: number, retrySec: number, retryable: boolean, cause?: unknown) {
    super(message, { cause, retryable });
    this.attempts = attempts;
    this.retrySec = retrySec;
    this.statusCode = APICallError.isInstance(cause) ? cause.statusCode : undefined;
  }
}

export interface ModelClientOptions {
  settings: ModelSettings;
  pricing?: PricingTable;
  env?: NodeJS.ProcessEnv;
  /** Called before each retry wait, for progress lines. */
  onRetry?: (info: { attempt: number; reason: string; waitMs: number }) => void;
}

/** One configured model: makes calls with retries, prices them and keeps the per-call records. */
export class ModelClient {
  readonly id: string;
  readonly settings: ModelSettings;
  readonly provider: ModelProvider;
  readonly price: PriceEntry | null;
  readonly contextWindow: number;
  readonly calls: CallRecord[] = [];
  private readonly model: LanguageModel;
  private readonly onRetry: ModelClientOptions["onRetry"];

  constructor(id: string, opts: ModelClientOptions) {
    const { provider, model } = parseModelId(id);
    this.id = id;
    this.settings = opts.settings;
    this.provider = getModelProvider(provider);
    this.model = this.provider.languageModel(model, opts.settings, opts.env ?? process.env);
    this.price = findPrice(opts.pricing ?? loadPricing(), id);
    this.contextWindow = opts.settings.contextWindow ?? this.price?.context_window ?? DEFAULT_CONTEXT_WINDOW;
    this.onRetry = opts.onRetry;
  }

  totals(): UsageTotals {
    return sumCalls(this.calls);
  }

  async complete(req: ModelRequest): Promise<ModelResponse> {
    const s = this.settings;
    const policy = { maxRetries: s.maxRetries, baseMs: s.retryBaseMs, maxMs: s.retryMaxMs };
    const firstStart = performance.now();
    for (let attempt = 0; ; attempt++) {
      const start = performance.now();
      const timeout = AbortSignal.timeout(s.timeoutSec * 1000);
      const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
      try {
        const out = await this.attempt(req, signal);
        const end = performance.now();
        const behind = Math.min(end - start, gatewayRetryMs(out.headers));
        const tokens = tokensFromSdk(out.usage);
        const cost = reportsUsage(out.usage) ? costOf(tokens, this.price) : UNMETERED;
        const record: CallRecord = {
          model: this.id,
          tokens,
          costUsd: cost.usd,
          priced: cost.priced,
          modelSec: (end - start - behind) / 1000,
          retrySec: (start - firstStart + behind) / 1000,
          attempts: attempt + 1,
        };
        this.calls.push(record);
        return { ...out.response, record };
      } catch (e) {
        if (req.signal?.aborted) throw e;
        const failure = classifyFailure(e, timeout.aborted);
        const retrySec = (performance.now() - firstStart) / 1000;
        if (!failure.retryable || attempt >= policy.maxRetries) {
          const what = failure.retryable ? `gave up after ${attempt + 1} attempts` : "not retryable";
          throw new ModelCallError(
            `model ${this.id}: ${failure.reason}: ${detail(e)} (${what})`,
            attempt + 1,
            retrySec,
            failure.retryable,
            e,
          );
        }
        const waitMs = backoffMs(attempt, policy, failure);
        this.onRetry?.({ attempt: attempt + 1, reason: failure.reason, waitMs });
        await sleep(waitMs, req.signal);
      }
    }
  }

  private async attempt(req: ModelRequest, signal: AbortSignal) {
    const s = this.settings;
    const providerOptions = this.provider.providerOptions(s);
    const common = {
      model: this.model,
      messages: req.messages,
      maxRetries: 0,
      abortSignal: signal,
      ...(req.system === undefined ? {} : { system: req.system }),
      ...(req.tools === undefined ? {} : { tools: req.tools }),
      ...(req.toolChoice === undefined ? {} : { toolChoice: req.toolChoice }),
      ...(s.temperature === undefined ? {} : { temperature: s.temperature }),
      ...(s.maxOutputTokens === undefined ? {} : { maxOutputTokens: s.maxOutputTokens }),
      ...(providerOptions === undefined ? {} : { providerOptions }),
    };
    if (!s.stream) {
      const { generateText } = await import("ai");
      const r = await generateText(common);
      return {
        usage: r.totalUsage,
        headers: r.response.headers,
        response: shape(r.text, r.toolCalls, r.response.messages, r.finishReason),
      };
    }
    let streamError: unknown;
    // The SDK loads with the first call (about 0.2 s of CPU): most processes never make one.
    const { streamText } = await import("ai");
    const r = streamText({
      ...common,
      onError: ({ error }) => {
        streamError = error;
      },
    });
    // Drain the stream so that transport errors surface here rather than as unhandled rejections.
    await r.consumeStream({ onError: (error) => (streamError ??= error) });
    if (streamError !== undefined) throw streamError;
    const [text, toolCalls, response, finishReason, rawFinishReason, usage] = await Promise.all([
      r.text,
      r.toolCalls,
      r.response,
      r.finishReason,
      r.rawFinishReason,
      r.totalUsage,
    ]);
    // Every API ends a whole answer with its finish reason; a stream that closes before it (cut
    // cleanly by a proxy, or no events at all) would otherwise pass as an answer, maybe an empty
    // one. Some providers' SDKs already raise this; the others report a finish of "other".
    if (rawFinishReason === undefined)
      throw new InvalidResponseDataError({
        data: undefined,
        message: "answer stream ended without a finish reason",
      });
    return {
      usage,
      headers: response.headers,
      response: shape(text, toolCalls, response.messages, finishReason),
    };
  }
}

/**
 * An error's text; a provider's error object from inside a stream is shown as its JSON. An answer
 * over the size cap is named as such (server and cap), however deep the SDK wrapped it.
 */
function detail(e: unknown): string {
  const tooLarge = findAnswerTooLarge(e);
  if (tooLarge !== null) return tooLarge.message;
  if (typeof e !== "object" || e === null || e instanceof Error) return errorMessage(e);
  return JSON.stringify(e) ?? String(e);
}

/**
 * An answer that reported no token counts (a server that omits usage) has an unknown cost, not a
 * cost of $0: it is flagged like a call to an unpriced model.
 */
const UNMETERED = { usd: 0, priced: false } as const;

function reportsUsage(u: LanguageModelUsage | undefined): boolean {
  return u !== undefined && (u.inputTokens !== undefined || u.outputTokens !== undefined);
}

interface SdkToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalid?: boolean | undefined;
  error?: unknown;
}

function shape(
  text: string,
  toolCalls: readonly SdkToolCall[],
  messages: ModelMessage[],
  finishReason: string,
): Omit<ModelResponse, "record"> {
  return {
    text,
    toolCalls: toolCalls.map((c) => ({
      id: c.toolCallId,
      name: c.toolName,
      input: c.input,
      invalid: c.invalid === true,
      ...(c.invalid === true ? { error: errorMessage(c.error) } : {}),
    })),
    // The tools have no `execute`, so every result is the caller's to send; the SDK's own error
    // results for invalid calls would answer those calls a second time, which providers refuse
    // (Anthropic: "each tool_use must have a single result").
    responseMessages: messages.filter((m) => m.role !== "tool"),
    finishReason,
  };
}
