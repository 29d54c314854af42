import { HISTOGRAM_BINS } from "../analysis/group-metrics.js";
import type { Summary } from "../analysis/summary-types.js";
import { OUTCOMES } from "../core/trial-result.js";

/** Rows ready for the browser to plot; shaped here so they are typed and testable in Node. */
export interface ChartData {
  rewardDist: { group: string; x1: number; x2: number; count: number; share: number }[];
  passVsReward: { group: string; pass: number; meanR: number; n: number }[];
  rho: number | null;
  costPass: { group: string; cost: number; pass: number; frontier: boolean }[];
  categoryHeat: { group: string; category: string; meanR: number; n: number }[];
  subtaskHeat: { group: string; row: string; score: number; n: number }[];
  /** Set when subtask rows were cut to keep the chart readable. */
  subtaskRowsDropped: number;
  outcomes: { group: string; outcome: string; count: number }[];
}

/** More rows than this make the heatmap unreadable; the first rows by name are kept. */
export const MAX_SUBTASK_ROWS = 300;

export function chartData(s: Summary): ChartData {
  const rewardDist: ChartData["rewardDist"] = [];
  for (const g of s.groups) {
    const h = g.rewardHistogram;
    if (h === null || g.scored === 0) continue;
    for (let i = 0; i < h.length; i++) {
      const count = h[i] ?? 0;
      const x1 = i / HISTOGRAM_BINS;
      rewardDist.push({ group: g.label, x1, x2: (i + 1) / HISTOGRAM_BINS, count, share: count / g.scored });
    }
  }
  const passVsReward = s.groups.flatMap((g) =>
    g.pass095.p === null || g.meanReward.value === null
      ? []
      : [{ group: g.label, pass: g.pass095.p, meanR: g.meanReward.value, n: g.scored }],
  );
  const frontier = new Set(s.frontier);
  const costPass = s.groups.flatMap((g) =>
    g.pass095.p === null || g.usage.meanCost === null
      ? []
      : [{ group: g.label, cost: g.usage.meanCost, pass: g.pass095.p, frontier: frontier.has(g.label) }],
  );
  const categoryHeat = s.byCategory.flatMap((g) =>
    g.meanReward.value === null
      ? []
      : [{ group: g.groupLabel, category: g.key.category ?? "-", meanR: g.meanReward.value, n: g.scored }],
  );
  const rowNames = [...new Set(s.bySubtask.map((r) => `${r.task} / ${r.subtask}`))].sort();
  const keep = new Set(rowNames.slice(0, MAX_SUBTASK_ROWS));
  const subtaskHeat = s.bySubtask.flatMap((r) => {
    const row = `${r.task} / ${r.subtask}`;
    return r.meanScore === null || !keep.has(row)
      ? []
      : [{ group: r.groupLabel, row, score: r.meanScore, n: r.n }];
  });
  const outcomes = s.groups.flatMap((g) =>
    OUTCOMES.filter((o) => g.outcomes[o] > 0).map((o) => ({
      group: g.label,
      outcome: o,
      count: g.outcomes[o],
    })),
  );
  return {
    rewardDist,
    passVsReward,
    rho: s.correlation.rho,
    costPass,
    categoryHeat,
    subtaskHeat,
    subtaskRowsDropped: rowNames.length - keep.size,
    outcomes,
  };
}
