import type { GroupMetrics, Summary } from "../analysis/summary-types.js";
import { OUTCOMES } from "../core/trial-result.js";
import { compact, estimate, num, rate, rateWithInterval, usd } from "./format.js";

/** One titled table of a report; text and Markdown renderers lay out the same sections. */
export interface Section {
  title: string;
  header: string[];
  rows: string[][];
  notes: string[];
}

export interface SectionOptions {
  /** Add per-category and/or per-task breakdown tables. */
  breakdowns?: readonly ("category" | "task")[];
}

export function headline(s: Summary): string {
  const o = s.overall;
  const excluded = o.outcomes.grading_error + o.outcomes.infra_error;
  const origin = s.source === "published" ? "published per-model rows" : `${o.trials} trials`;
  const boot = s.bootstrapSamples > 0 ? `, bootstrap ${s.bootstrapSamples} resamples, seed ${s.seed}` : "";
  return `${origin}: ${o.scored} scored, ${excluded} excluded (grading_error ${o.outcomes.grading_error}, infra_error ${o.outcomes.infra_error})${boot}`;
}

function mainRow(g: GroupMetrics): string[] {
  return [
    g.label,
    String(g.scored),
    rateWithInterval(g.pass095),
    rateWithInterval(g.pass100),
    estimate(g.meanReward),
    rate(g.nearMiss),
    rate(g.falseFinish),
    rate(g.timeoutShare),
    num(g.usage.meanTurns, 1),
    compact(g.usage.meanTokens),
    usd(g.usage.meanCost),
    usd(g.usage.costPerResolved),
  ];
}

export function buildSections(s: Summary, opts: SectionOptions = {}): Section[] {
  const sections: Section[] = [];
  const rows = s.groups.map(mainRow);
  if (s.groups.length > 1) rows.push(mainRow(s.overall));
  const notes = [
    `ρ (Spearman, Pass@1 R≥0.95 vs mean R, ${s.correlation.n} groups) = ${num(s.correlation.rho, 2)}`,
    `cost–pass frontier: ${s.frontier.length > 0 ? s.frontier.join(" → ") : "–"}`,
  ];
  sections.push({
    title: `Results by ${s.groupBy.join(" × ")}`,
    header: [
      s.groupBy.join(" / "),
      "n",
      "Pass@1 R≥0.95 [95% CI]",
      "Pass@1 R=1 [95% CI]",
      "mean R [95% CI]",
      "near-miss",
      "false finish",
      "timeout share",
      "turns",
      "tokens",
      "$/trial",
      "$/resolved",
    ],
    rows,
    notes,
  });
  if (s.source === "trials") {
    sections.push({
      title: "Outcomes (grading_error and infra_error are excluded from rates)",
      header: [s.groupBy.join(" / "), "trials", ...OUTCOMES],
      rows: [...s.groups, ...(s.groups.length > 1 ? [s.overall] : [])].map((g) => [
        g.label,
        String(g.trials),
        ...OUTCOMES.map((o) => String(g.outcomes[o])),
      ]),
      notes: [],
    });
    const maxK = Math.max(0, ...s.groups.map((g) => g.passAtK.length));
    if (maxK > 1) {
      const ks = [1, 2, 3, 5, 10].filter((k) => k <= maxK);
      sections.push({
        title: "pass@k and pass^k over attempts (R ≥ 0.95; tasks with ≥ k attempts)",
        header: [
          s.groupBy.join(" / "),
          ...ks.map((k) => `pass@${k}`),
          ...ks.filter((k) => k > 1).map((k) => `pass^${k}`),
        ],
        rows: s.groups.map((g) => [
          g.label,
          ...ks.map((k) => kCell(g.passAtK, k)),
          ...ks.filter((k) => k > 1).map((k) => kCell(g.passHatK, k)),
        ]),
        notes: [],
      });
    }
  }
  for (const b of opts.breakdowns ?? []) {
    const list = b === "category" ? s.byCategory : s.byTask;
    sections.push({
      title: `By ${b}`,
      header: [`${s.groupBy.join(" / ")} · ${b}`, "n", "Pass@1 R≥0.95", "mean R", "near-miss", "$/trial"],
      rows: list.map((g) => [
        g.label,
        String(g.scored),
        rate(g.pass095),
        num(g.meanReward.value),
        rate(g.nearMiss),
        usd(g.usage.meanCost),
      ]),
      notes: [],
    });
  }
  return sections;
}

function kCell(points: readonly { k: number; value: number; tasks: number }[], k: number): string {
  const p = points.find((x) => x.k === k);
  return p === undefined ? "–" : `${(p.value * 100).toFixed(1)}% (${p.tasks})`;
}
