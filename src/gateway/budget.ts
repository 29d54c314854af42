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

/** What one finished call spent, for the gate's estimate of the calls still in flight. */
export interface CallSpend {
  tokens: number;
  usd: number;
}

/**
 * Admits calls under a budget. A call's spend is known only once it answers, so calls made side
 * by side could all pass the check and together spend the budget several times over. Calls run
 * side by side while the totals plus, for every call in flight, the largest call seen so far stay
 * under each limit; otherwise (and while no call has finished, its size unknown) a call waits for
 * those in flight to finish and is then checked against the actual totals. Without a budget every
 * call is admitted at once.
 */
export class BudgetGate {
  private inflight = 0;
  private finished = 0;
  private largest: CallSpend = { tokens: 0, usd: 0 };
  private waiters: (() => void)[] = [];

  constructor(private readonly budget: GatewayBudget) {}

  /** Null once the call may go (release it when it ends), else why it is refused. */
  async admit(totals: () => UsageTotals, closing: AbortSignal): Promise<BudgetStop | null> {
    const b = this.budget;
    if (b.maxTokens === undefined && b.maxCostUsd === undefined) {
      this.inflight++;
      return null;
    }
    for (;;) {
      closing.throwIfAborted();
      const t = totals();
      const stop = budgetStop(b, t);
      if (stop !== null) return stop;
      if (this.inflight === 0 || (this.finished > 0 && this.fits(t))) {
        this.inflight++;
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

  /** The call admitted last has ended, having spent `spent` (zero when it failed). */
  release(spent: CallSpend): void {
    this.inflight--;
    this.finished++;
    this.largest = {
      tokens: Math.max(this.largest.tokens, spent.tokens),
      usd: Math.max(this.largest.usd, spent.usd),
    };
    for (const wake of this.waiters.splice(0)) wake();
  }

  private fits(t: UsageTotals): boolean {
    const b = this.budget;
    const used = t.tokens.inputTokens + t.tokens.outputTokens;
    if (b.maxTokens !== undefined && used + this.inflight * this.largest.tokens >= b.maxTokens) return false;
    if (b.maxCostUsd !== undefined && t.costUsd + this.inflight * this.largest.usd >= b.maxCostUsd)
      return false;
    return true;
  }
}
