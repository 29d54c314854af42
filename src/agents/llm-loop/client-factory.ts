import { UserError } from "../../core/index.js";
import { ModelClient, settingsFromOptions } from "../../models/index.js";
import type { AgentContext } from "../types.js";
import { type LoopOptions, parseLoopOptions } from "./options.js";

export interface LoopSetup {
  client: ModelClient;
  options: LoopOptions;
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
    settings: settingsFromOptions(merged),
    onRetry: ({ attempt, reason, waitMs }) =>
      ctx.log(`${agent}: model call failed (${reason}); retry ${attempt} in ${Math.round(waitMs)} ms`),
  });
  return { client, options: parseLoopOptions(merged) };
}
