import { UserError } from "../core/index.js";
import type { UsageTotals } from "../models/index.js";
import type { BudgetStop, GatewayBudget } from "./types.js";

/** `--agent-opt` keys of the per-trial budgets (`run --max-tokens` / `--max-cost` set them). */
export const BUDGET_OPTION_KEYS = { tokens: "budget_tokens", cost: "budget_usd" } as const;

/** The budget in a trial's agent options; absent keys mean no limit. */
export function budgetFromOptions(options: Readonly<Record<string, string>>): GatewayBudget {
  const out: GatewayBudget = {};
  const tokens = options[BUDGET_OPTION_KEYS.tokens];
  if (tokens !== undefined) {
    const n = Number(tokens);
    if (!Number.isInteger(n) || n <= 0)
      throw new UserError(`option ${BUDGET_OPTION_KEYS.tokens}=${tokens}: expected a positive integer`);
    out.maxTokens = n;
  }
  const cost = options[BUDGET_OPTION_KEYS.cost];
  if (cost !== undefined) {
    const usd = Number(cost);
    if (cost.trim() === "" || !Number.isFinite(usd) || usd <= 0)
      throw new UserError(`option ${BUDGET_OPTION_KEYS.cost}=${cost}: expected a positive number of USD`);
    out.maxCostUsd = usd;
  }
  return out;
}

/**
 * Null while calls may still be made. A call is checked before it is sent, so the call that
 * crosses a limit completes (its tokens are unknown until it answers) and the next one is refused.
 */
export function budgetStop(b: GatewayBudget, t: UsageTotals): BudgetStop | null {
  const used = t.tokens.inputTokens + t.tokens.outputTokens;
  if (b.maxTokens !== undefined && used >= b.maxTokens)
    return {
      reason: "tokens",
      message: `token budget spent: ${used} of ${b.maxTokens} tokens used`,
    };
  if (b.maxCostUsd !== undefined && t.costUsd >= b.maxCostUsd)
    return {
      reason: "cost",
      message: `cost budget spent: $${t.costUsd.toFixed(4)} of $${b.maxCostUsd} used`,
    };
  return null;
}
