import type { GroupMetrics, Summary } from "../analysis/summary-types.js";
import { OUTCOMES } from "../core/trial-result.js";
import {
  continuationSection,
  correlationNotes,
  falseFinishSection,
  gradingErrorSection,
  hiddenCaseNotes,
  recoveredSection,
  referenceSections,
  worldSeedSection,
} from "./extra-sections.js";
import { compact, costCell, estimate, num, rate, rateWithInterval, reasonCell } from "./format.js";
import { worldCceSection, worldCceTrialSection } from "./world-cce-sections.js";
import { worldChatSection, worldChatTrialSection } from "./world-chat-sections.js";

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
  const boot = s.bootstrapSamples > 0 ? `, bootstrap ${s.bootstrapSamples} resamples, seed ${s.seed}` : "";
  if (s.source === "published") return `published per-model rows: ${s.groups.length} rows${boot}`;
  return (
    `${o.trials} trials: ${o.scored} counted, ${o.outcomes.infra_error} excluded (infra_error); ` +
    `grading_error ${o.outcomes.grading_error} counted as R = 0${boot}`
  );
}

function mainRow(g: GroupMetrics, published: boolean): string[] {
  return [
    g.label,
    String(g.scored),
    rateWithInterval(g.pass095),
    rateWithInterval(g.pass100),
    estimate(g.meanReward),
    rate(g.nearMiss),
    rate(g.falseFinish),
    rate(g.stoppedEarly),
    rate(g.timeoutShare),
    published ? "–" : gradingCell(g),
    num(g.usage.meanTurns, 1),
    compact(g.usage.meanTokens),
    costCell(g.usage.meanCost, g.usage.costUnknown),
    costCell(g.usage.costPerResolved, g.usage.costUnknown),
  ];
}

/** `2: verifier wrote no reward-details.json` — the count and the first reason, cut short. */
function gradingCell(g: GroupMetrics): string {
  const e = g.gradingErrors;
  if (e.count === 0) return "0";
  return e.firstReason === null ? String(e.count) : `${e.count}: ${reasonCell(e.firstReason, 60)}`;
}

export function buildSections(s: Summary, opts: SectionOptions = {}): Section[] {
  const sections: Section[] = [];
  const published = s.source === "published";
  const rows = s.groups.map((g) => mainRow(g, published));
  if (s.groups.length > 1) rows.push(mainRow(s.overall, published));
  const unpriced = s.groups.filter((g) => g.usage.costUnknown > 0).map((g) => g.label);
  const notes = [
    ...correlationNotes(s),
    `cost–pass frontier: ${s.frontier.length > 0 ? s.frontier.join(" → ") : "–"}`,
    ...(unpriced.length > 0
      ? [`cost unknown (model has no price; kept off the frontier): ${unpriced.join(", ")}`]
      : []),
    ...(s.source === "trials"
      ? [
          "n counts every trial except infra_error; a grading_error trial counts as not passing and as R = 0 in mean R",
          "false finish = self-terminated with 0.75 ≤ R < 0.95; stopped early = self-terminated with R < 0.95",
        ]
      : []),
    ...hiddenCaseNotes(s),
    ...(s.worldTrials !== undefined
      ? [
          `world trials (${s.worldTrials}): Pass@1 is SR (the task's success condition held), R = 1 also needs every checkpoint, and R is PSR (the weighted share of checkpoints reached)`,
        ]
      : []),
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
      "stopped early",
      "timeout share",
      "grading errors",
      "turns",
      "tokens",
      "$/trial",
      "$/resolved",
    ],
    rows,
    notes,
  });
  for (const extra of [
    recoveredSection(s),
    falseFinishSection(s),
    continuationSection(s),
    worldSeedSection(s),
    worldCceSection(s),
    worldCceTrialSection(s),
    worldChatSection(s),
    worldChatTrialSection(s),
    gradingErrorSection(s),
  ]) {
    if (extra !== null) sections.push(extra);
  }
  sections.push(...referenceSections(s));
  if (s.source === "trials") {
    sections.push({
      title: "Outcomes (infra_error is excluded from rates; grading_error counts as R = 0)",
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
    // Published per-model rows have no breakdowns; an empty table would only look like a bug.
    if (list.length === 0) continue;
    sections.push({
      title: `By ${b}`,
      header: [`${s.groupBy.join(" / ")} · ${b}`, "n", "Pass@1 R≥0.95", "mean R", "near-miss", "$/trial"],
      rows: list.map((g) => [
        g.label,
        String(g.scored),
        rate(g.pass095),
        num(g.meanReward.value),
        rate(g.nearMiss),
        costCell(g.usage.meanCost, g.usage.costUnknown),
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
