import { rankAgreement } from "./rank-agreement.js";
import { paretoFrontier } from "./stats.js";
import type { GroupMetrics, Summary } from "./summary-types.js";

/**
 * Rank agreement of Pass@1 (both thresholds) with mean R, and the cost–pass frontier, over groups
 * that have counted trials. Groups with an unknown cost stay off the frontier.
 */
export function crossGroup(
  groups: readonly GroupMetrics[],
  seed: number,
  samples: number,
): Pick<Summary, "correlation" | "frontier"> {
  const scored = groups.filter((g) => g.pass095.p !== null && g.meanReward.value !== null);
  const means = scored.map((g) => g.meanReward.value as number);
  // Rankings have a few dozen items at most; more resamples than this change nothing visible.
  const opts = { seed, samples: Math.min(samples, 1000) };
  const pass095VsMean = rankAgreement(
    scored.map((g) => g.pass095.p as number),
    means,
    { ...opts, label: "pass095-vs-mean" },
  );
  const with100 = scored.filter((g) => g.pass100.p !== null);
  const pass100VsMean = rankAgreement(
    with100.map((g) => g.pass100.p as number),
    with100.map((g) => g.meanReward.value as number),
    { ...opts, label: "pass100-vs-mean" },
  );
  const points = scored
    .filter((g) => g.usage.meanCost !== null)
    .map((g) => ({ id: g.label, cost: g.usage.meanCost as number, pass: g.pass095.p as number }));
  return {
    correlation: {
      rho: pass095VsMean.spearman.value,
      rho100: pass100VsMean.spearman.value,
      n: scored.length,
      pass095VsMean,
      pass100VsMean,
    },
    frontier: paretoFrontier(points),
  };
}
