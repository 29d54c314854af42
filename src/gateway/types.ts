import type { TokenUsage } from "../models/index.js";

/** The three model APIs the gateway serves, named by their wire format. */
export const GATEWAY_APIS = ["chat", "responses", "messages"] as const;
export type GatewayApi = (typeof GATEWAY_APIS)[number];

/**
 * Where one trial's model calls go (the agents layer's `ModelEndpoint` has the same shape):
 * a loopback TCP URL for agent loops on the host and a unix socket for sandboxes without network.
 */
export interface GatewayEndpoint {
  hostUrl: string;
  socketPath: string;
  token: string;
  provider: string;
  model: string;
}

/** Per-trial limits; a call made once either is reached is refused. */
export interface GatewayBudget {
  /** Input plus output tokens (cached input included). */
  maxTokens?: number;
  maxCostUsd?: number;
}

/** Why the gateway refused calls: the trial's budget was spent. */
export interface BudgetStop {
  reason: "tokens" | "cost";
  message: string;
}

/** Something outside the agent made its calls fail: the upstream kept failing, or our key was refused. */
export interface GatewayFault {
  kind: "infra" | "config";
  message: string;
}

/** One forwarded call's accounting. */
export interface ExchangeUsage {
  tokens: TokenUsage;
  costUsd: number;
  priced: boolean;
}
