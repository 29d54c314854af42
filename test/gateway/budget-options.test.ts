import { describe, expect, it } from "vitest";
import { choicesOf } from "../../src/cli/commands/run.js";
import { budgetFromOptions, budgetStop } from "../../src/gateway/index.js";
import { emptyTotals } from "../../src/models/index.js";
import { buildJobConfig, checkJobChoices } from "../../src/runner/index.js";

describe("per-trial model budgets", () => {
  it("reads budget_tokens and budget_usd and refuses bad values before a job starts", () => {
    expect(budgetFromOptions({ budget_tokens: "5000", budget_usd: "0.25", other: "x" })).toEqual({
      maxTokens: 5000,
      maxCostUsd: 0.25,
    });
    expect(budgetFromOptions({})).toEqual({});
    expect(() => budgetFromOptions({ budget_tokens: "1.5" })).toThrow(/budget_tokens=1.5/);
    expect(() => checkJobChoices({ agents: ["oracle"], agentOptions: { budget_usd: "-1" } }, {})).toThrow(
      /budget_usd=-1: expected a positive number/,
    );
  });

  it("is spent once either limit is reached, and not before", () => {
    const t = { ...emptyTotals(), tokens: { ...emptyTotals().tokens, inputTokens: 900, outputTokens: 99 } };
    expect(budgetStop({ maxTokens: 1000 }, t)).toBeNull();
    expect(budgetStop({ maxTokens: 999 }, t)).toMatchObject({ reason: "tokens" });
    expect(budgetStop({ maxCostUsd: 0.5 }, { ...t, costUsd: 0.49 })).toBeNull();
    expect(budgetStop({ maxCostUsd: 0.5 }, { ...t, costUsd: 0.5 })).toMatchObject({ reason: "cost" });
  });

  it("run --max-tokens/--max-cost keep the budget in the job's agent options", () => {
    const choices = choicesOf({ agent: ["terminus"], agentOpt: ["k=v"], maxTokens: 5000, maxCost: 0.5 });
    expect(choices.agentOptions).toEqual({ k: "v", budget_tokens: "5000", budget_usd: "0.5" });
    const config = buildJobConfig({ ...choices, agents: ["nop"], tasks: [] });
    expect(config.agent_options).toMatchObject({ budget_tokens: "5000", budget_usd: "0.5" });
  });
});
