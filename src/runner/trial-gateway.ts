import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentNeedsModel } from "../agents/registry.js";
import { InfraError, isLonghaulError, type TrialResult, type Usage, UserError } from "../core/index.js";
import { budgetFromOptions, type Gateway, startGateway } from "../gateway/index.js";
import { settingsFromOptions } from "../models/index.js";
import { isAlive } from "../sandbox/sweep.js";

export interface TrialGateway {
  gateway: Gateway;
  /** Aborted when the gateway's calls fail for reasons outside the agent: its phase ends then. */
  fault: AbortSignal;
  /** Closes the gateway and removes its socket folder: only once the sandbox is gone. */
  release(): Promise<void>;
}

/**
 * Starts the trial's model gateway when its agent has a model: base URL, key and retry policy
 * from the same options as longhaul's model client, the budget from `budget_tokens` /
 * `budget_usd`, and the exchange record in `<trial>/agent/gateway.jsonl`.
 */
const GATEWAY_DIR_PREFIX = "lhgw-";

/**
 * Removes the socket folders of trial gateways whose process is gone (a runner killed before it
 * could clean up); returns the folders removed. Folders of live processes are left alone.
 */
export function sweepStaleGatewayDirs(dir: string = tmpdir()): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const m = /^lhgw-(\d+)-/.exec(name);
    if (m?.[1] === undefined || isAlive(Number(m[1]))) continue;
    const path = join(dir, name);
    rmSync(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}

export async function startTrialGateway(p: {
  agent: string;
  model: string | null;
  agentOptions: Record<string, string>;
  agentLogDir: string;
  log?: (line: string) => void;
}): Promise<TrialGateway | null> {
  if (p.model === null) return null;
  const fault = new AbortController();
  // The socket's folder outlives the gateway: the sandbox may bind it for its whole life.
  // Named for this process, so that a later job can remove it if this one is killed (-9).
  const socketDir = mkdtempSync(join(tmpdir(), `${GATEWAY_DIR_PREFIX}${process.pid}-`));
  chmodSync(socketDir, 0o755);
  const removeDir = (): void => rmSync(socketDir, { recursive: true, force: true });
  try {
    const gateway = await startGateway({
      socketDir,
      modelId: p.model,
      settings: settingsFromOptions(p.agentOptions),
      budget: budgetFromOptions(p.agentOptions),
      recordPath: join(p.agentLogDir, "gateway.jsonl"),
      ...(p.log ? { log: p.log } : {}),
      onFault: (f) => fault.abort(new Error(f.message)),
    });
    return {
      gateway,
      fault: fault.signal,
      release: async () => {
        await gateway.close().catch(() => undefined);
        removeDir();
      },
    };
  } catch (e) {
    removeDir();
    // An agent that does not drive a model runs without a gateway when its provider is not set up.
    if (isLonghaulError(e) && e.kind === "user" && !agentNeedsModel(p.agent)) return null;
    throw e;
  }
}

/** A fault of the gateway makes the whole trial an infrastructure failure (or a configuration one). */
export function throwOnFault(g: TrialGateway | null): void {
  const f = g?.gateway.fault() ?? null;
  if (f === null) return;
  if (f.kind === "config")
    throw new UserError(`model gateway: ${f.message}; check the model id and its API key`);
  throw new InfraError(`model gateway: ${f.message}`, { retryable: true });
}

/**
 * The trial's usage with tokens and cost from the gateway's count (when calls went through it),
 * the agent's own turns, parse errors and command time kept.
 */
export function usageWithGateway(agentUsage: Usage, g: TrialGateway | null): Usage {
  const t = g?.gateway.usage();
  if (t === undefined || t.calls === 0) return agentUsage;
  return {
    ...agentUsage,
    input_tokens: t.tokens.inputTokens,
    output_tokens: t.tokens.outputTokens,
    cached_tokens: t.tokens.cachedTokens,
    reasoning_tokens: t.tokens.reasoningTokens,
    cost_usd: t.costUsd,
    cost_known: t.unpricedCalls === 0,
    model_sec: agentUsage.model_sec > 0 ? agentUsage.model_sec : t.modelSec,
  };
}

/** A spent budget ends the trial as the agent's: scored like its turn budget running out. */
export function budgetOutcome(g: TrialGateway | null): Pick<TrialResult, "outcome" | "error"> | null {
  const stop = g?.gateway.budgetStop() ?? null;
  if (stop === null) return null;
  return { outcome: "agent_timeout", error: { kind: "budget", message: stop.message } };
}
