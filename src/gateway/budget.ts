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

/** Tokens and USD: what a call may spend at most, before it is sent. */
export interface CallSpend {
  tokens: number;
  usd: number;
}

/**
 * Admits calls under a budget. A call's spend is known only once it answers, so calls made side
 * by side could all pass the check and together spend the budget several times over. Each call
 * therefore comes with the most it can spend (`worstCaseSpend`: its prompt's bytes plus its output
 * cap, within the context window), and is admitted only while the totals plus that worst case for
 * every call in flight stay under each limit; otherwise it waits for calls in flight to end and is
 * checked again. With nothing in flight that is the plain check, so a trial spends at most one
 * call past its limit, side by side or not: the call that crosses it. Sizing calls in flight by
 * the calls seen so far instead let a small first call open the gate to many huge ones at once.
 * Without a budget every call is admitted at once.
 */
export class BudgetGate {
  private inflight: CallSpend = { tokens: 0, usd: 0 };
  private calls = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly budget: GatewayBudget) {}

  /** Null once the call may go (release it with the same `worst` when it ends), else why it is refused. */
  async admit(totals: () => UsageTotals, closing: AbortSignal, worst: CallSpend): Promise<BudgetStop | null> {
    const b = this.budget;
    if (b.maxTokens === undefined && b.maxCostUsd === undefined) return null;
    for (;;) {
      closing.throwIfAborted();
      const t = totals();
      const stop = budgetStop(b, t);
      if (stop !== null) return stop;
      if (this.fits(t)) {
        this.inflight = { tokens: this.inflight.tokens + worst.tokens, usd: this.inflight.usd + worst.usd };
        this.calls++;
        return null;
      }
      await new Promise<void>((ok) => {
        const wake = (): void => {
          closing.removeEventListener("abort", wake);
          ok();
        };
        this.waiters.push(wake);
        closing.addEventListener("abort", wake, { once: true });
      });
    }
  }

  /** A call admitted with `worst` has ended; its real spend is in the totals now. */
  release(worst: CallSpend): void {
    const b = this.budget;
    if (b.maxTokens === undefined && b.maxCostUsd === undefined) return;
    this.calls--;
    // Back to exact zero once nothing is in flight, so float sums of USD leave no phantom call.
    this.inflight =
      this.calls === 0
        ? { tokens: 0, usd: 0 }
        : { tokens: this.inflight.tokens - worst.tokens, usd: this.inflight.usd - worst.usd };
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The totals plus the worst case of every call in flight stay under each limit. */
  private fits(t: UsageTotals): boolean {
    const b = this.budget;
    const used = t.tokens.inputTokens + t.tokens.outputTokens;
    if (b.maxTokens !== undefined && used + this.inflight.tokens >= b.maxTokens) return false;
    if (b.maxCostUsd !== undefined && t.costUsd + this.inflight.usd >= b.maxCostUsd) return false;
    return true;
  }
}
