import type { ExternalSummaryRow } from "./external-results.js";
import { emptyOutcomes } from "./group-metrics.js";
import { decimalsOf, type RecoveredRow, recoverCount } from "./recover-counts.js";
import { type Rate, wilson } from "./stats.js";
import { crossGroup, DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_SEED } from "./summarize.js";
import type { GroupMetrics, Summary } from "./summary-types.js";
import { THRESHOLDS } from "./summary-types.js";

/**
 * A summary built from per-model rows published by others (e.g. a paper's results table), so
 * they render next to local runs. Only what the row states is filled in; a published pass rate
 * p over n trials becomes k = round(p·n) so it carries a numerator and a Wilson interval.
 */
export function summaryFromPublished(
  rows: readonly ExternalSummaryRow[],
  options: { seed?: number; bootstrapSamples?: number } = {},
): Summary {
  const seed = options.seed ?? DEFAULT_SEED;
  const samples = options.bootstrapSamples ?? DEFAULT_BOOTSTRAP_SAMPLES;
  const groups = rows.map(groupFromRow);
  const totalN = rows.reduce((s, r) => s + r.n, 0);
  const sumK = (pick: (g: GroupMetrics) => Rate) => groups.reduce((s, g) => s + pick(g).k, 0);
  const hasPass = rows.every((r) => r.pass_095 !== undefined);
  const hasPerfect = rows.every((r) => r.pass_100 !== undefined);
  const hasMean = rows.every((r) => r.mean_reward !== undefined);
  const overall: GroupMetrics = {
    ...blank("overall", "all", totalN),
    pass095: hasPass
      ? wilson(
          sumK((g) => g.pass095),
          totalN,
        )
      : wilson(0, 0),
    pass100: hasPerfect
      ? wilson(
          sumK((g) => g.pass100),
          totalN,
        )
      : wilson(0, 0),
    meanReward: {
      value: hasMean && totalN > 0 ? rows.reduce((s, r) => s + (r.mean_reward ?? 0) * r.n, 0) / totalN : null,
      lo: null,
      hi: null,
      n: totalN,
      method: null,
    },
  };
  return {
    schema: "longhaul.summary/2",
    source: "published",
    seed,
    bootstrapSamples: samples,
    groupBy: ["agent", "model"],
    thresholds: THRESHOLDS,
    overall,
    groups,
    byCategory: [],
    byTask: [],
    bySubtask: [],
    ...crossGroup(groups, seed, samples),
    hiddenCaseWarnings: [],
    recovered: rows.map(recoveredRow),
    continuation: [],
    references: [],
  };
}

/** The k/n each printed rate maps to; rates given as plain fractions are printed at full precision. */
function recoveredRow(r: ExternalSummaryRow): RecoveredRow {
  const one = (col: "pass_095" | "pass_100") => {
    const v = r[col];
    if (v === undefined) return null;
    const printed = r.printed?.[col] ?? {
      value: v,
      decimals: decimalsOf(String(v)),
      unit: "fraction" as const,
    };
    return recoverCount(printed, r.n);
  };
  return { label: `${r.agent} / ${r.model}`, n: r.n, pass095: one("pass_095"), pass100: one("pass_100") };
}

function blank(level: "overall" | "group", label: string, n: number): GroupMetrics {
  return {
    level,
    key: {},
    groupLabel: label,
    label,
    trials: n,
    scored: n,
    outcomes: emptyOutcomes(),
    pass095: wilson(0, 0),
    pass100: wilson(0, 0),
    meanReward: { value: null, lo: null, hi: null, n, method: null },
    rewardHistogram: null,
    passAtK: [],
    passHatK: [],
    nearMiss: null,
    falseFinish: null,
    stoppedEarly: null,
    falseFinishBudget: null,
    timeoutShare: null,
    gradingErrors: { count: 0, firstReason: null, firstTask: null },
    usage: {
      meanTurns: null,
      meanTokens: null,
      meanCost: null,
      totalCost: null,
      costPerResolved: null,
      costUnknown: 0,
    },
  };
}

function groupFromRow(r: ExternalSummaryRow): GroupMetrics {
  const label = `${r.agent} / ${r.model}`;
  const pass = r.pass_095 === undefined ? wilson(0, 0) : wilson(Math.round(r.pass_095 * r.n), r.n);
  const g = blank("group", label, r.n);
  return {
    ...g,
    key: { agent: r.agent, model: r.model },
    pass095: pass,
    pass100: r.pass_100 === undefined ? wilson(0, 0) : wilson(Math.round(r.pass_100 * r.n), r.n),
    meanReward: { value: r.mean_reward ?? null, lo: null, hi: null, n: r.n, method: null },
    usage: {
      meanTurns: r.turns ?? null,
      meanTokens: r.tokens ?? null,
      meanCost: r.cost_usd ?? null,
      totalCost: r.cost_usd === undefined ? null : r.cost_usd * r.n,
      costPerResolved: r.cost_usd !== undefined && pass.k > 0 ? (r.cost_usd * r.n) / pass.k : null,
      costUnknown: 0,
    },
  };
}
