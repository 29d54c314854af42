import { UserError } from "../../core/index.js";
import { ModelClient, type ModelSettings, settingsFromOptions } from "../../models/index.js";
import type { AgentContext, AgentRunResult, ModelEndpoint } from "../types.js";
import { type LoopDriver, runLlmLoop } from "./loop.js";
import { type LoopOptions, parseLoopOptions } from "./options.js";

export interface LoopSetup {
  client: ModelClient;
  options: LoopOptions;
}

/**
 * With a model gateway, calls go to it with the trial's token instead of the provider's URL and
 * key; the gateway retries the upstream, so the client does not retry on top of it (a give-up
 * there ends the trial as an infrastructure failure).
 */
function viaGateway(s: ModelSettings, endpoint: ModelEndpoint | undefined): ModelSettings {
  if (endpoint === undefined) return s;
  return { ...s, baseUrl: `${endpoint.hostUrl}/v1`, apiKey: endpoint.token, maxRetries: 0 };
}

/** Factory options first, then the run's own `--agent-opt` values on top. */
export function setupFromContext(
  agent: string,
  factoryOptions: Record<string, string>,
  ctx: AgentContext,
): LoopSetup {
  if (ctx.model === null) throw new UserError(`agent ${agent} needs a model: pass --model provider:name`);
  const merged = { ...factoryOptions, ...ctx.options };
  const client = new ModelClient(ctx.model, {
    settings: viaGateway(settingsFromOptions(merged), ctx.modelEndpoint),
    onRetry: ({ attempt, reason, waitMs }) =>
      ctx.log(`${agent}: model call failed (${reason}); retry ${attempt} in ${Math.round(waitMs)} ms`),
  });
  return { client, options: parseLoopOptions(merged) };
}

/**
 * Runs a driver through the shared loop for an agent phase and maps the loop's stop reason to
 * what the runner records: a turn or wall-clock budget running out counts as a timeout.
 */
export async function runLoopAgent(
  driver: LoopDriver,
  setup: LoopSetup,
  ctx: AgentContext,
): Promise<AgentRunResult> {
  const r = await runLlmLoop(driver, {
    client: setup.client,
    options: setup.options,
    instruction: ctx.instruction,
    signal: ctx.signal,
    logDir: ctx.logDir,
    timeoutSec: ctx.timeoutSec,
    log: ctx.log,
    ...(ctx.onDone ? { onDone: ctx.onDone } : {}),
  });
  return {
    selfTerminated: r.selfTerminated,
    budgetExhausted: r.stopReason === "turns" || r.stopReason === "wall",
    usage: r.usage,
    ...(r.error === undefined ? {} : { error: r.error }),
  };
}
