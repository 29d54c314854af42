import type { Comparison } from "../analysis/compare.js";
import { describeMismatches } from "../analysis/hidden-cases.js";
import { agreementText, alignTable, num } from "./format.js";
import { csvLines } from "./render-csv.js";
import { markdownCell } from "./render-markdown.js";
import { fractionCell } from "./world-cce-sections.js";

function signed(x: number | null): string {
  if (x === null) return "–";
  return `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
}

export function comparisonHeadline(c: Comparison): string {
  const d = c.meanDiff;
  const ci = d.lo === null || d.hi === null ? "" : ` [${signed(d.lo)}, ${signed(d.hi)}]`;
  return (
    `${d.n} paired tasks: mean R A ${num(c.meanA)} → B ${num(c.meanB)}, Δ ${signed(d.value)}${ci} ` +
    `(paired bootstrap 95%, ${c.bootstrapSamples} resamples, seed ${c.seed}); ` +
    `B better on ${c.better}, worse on ${c.worse}, equal on ${c.ties}`
  );
}

/** Rank agreement of the two jobs' agent / model groups, and any hidden-case mismatch. */
export function comparisonNotes(c: Comparison): string[] {
  const out = c.ranks.map(
    (r) =>
      `rank agreement of groups by ${r.metric}: ${agreementText(r.agreement)}` +
      (r.onlyA.length + r.onlyB.length > 0
        ? `; only in A: ${r.onlyA.join(", ") || "–"}; only in B: ${r.onlyB.join(", ") || "–"}`
        : ""),
  );
  for (const [side, rows] of [
    ["A", c.worldCce?.a ?? []],
    ["B", c.worldCce?.b ?? []],
  ] as const) {
    for (const g of rows)
      out.push(
        `causal contribution ${side} ${g.label}: macro CCE ${g.macro.value === null ? "–" : g.macro.value.toFixed(3)} over ${g.macro.n} tasks (${g.successes} succeeded), pooled CCE ${fractionCell(g.pooled)}, closure calls necessary ${fractionCell(g.necessity)}`,
      );
  }
  if (c.hiddenCases.length > 0) {
    out.push(
      `WARNING: ${c.hiddenCases.length} (task, attempt) pair(s) were graded on different hidden cases: ${describeMismatches(c.hiddenCases)}`,
    );
  }
  return out;
}

/** Text table of a job comparison: headline, per-task rows, tasks present on one side only. */
export function renderComparisonTable(c: Comparison): string {
  const rows = c.rows.map((r) => [
    r.task,
    r.category,
    String(r.nA),
    String(r.nB),
    num(r.meanA),
    num(r.meanB),
    signed(r.diff),
  ]);
  const out = [
    comparisonHeadline(c),
    ...comparisonNotes(c),
    "",
    alignTable(["task", "category", "nA", "nB", "mean R A", "mean R B", "Δ"], rows),
  ];
  if (c.onlyInA.length > 0) out.push(`only in A: ${c.onlyInA.join(", ")}`);
  if (c.onlyInB.length > 0) out.push(`only in B: ${c.onlyInB.join(", ")}`);
  return `${out.join("\n")}\n`;
}

export function renderComparisonMarkdown(c: Comparison): string {
  const out = [
    "# Job comparison",
    "",
    comparisonHeadline(c),
    "",
    ...comparisonNotes(c).map((n) => `- ${n}`),
    "",
    "| task | category | nA | nB | mean R A | mean R B | Δ |",
  ];
  out.push("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
  for (const r of c.rows) {
    out.push(
      `| ${markdownCell(r.task)} | ${markdownCell(r.category)} | ${r.nA} | ${r.nB} | ${num(r.meanA)} | ${num(r.meanB)} | ${signed(r.diff)} |`,
    );
  }
  if (c.onlyInA.length > 0) out.push("", `Only in A: ${c.onlyInA.join(", ")}`);
  if (c.onlyInB.length > 0) out.push("", `Only in B: ${c.onlyInB.join(", ")}`);
  return `${out.join("\n")}\n`;
}

export function renderComparisonCsv(c: Comparison): string {
  return csvLines(
    ["task", "category", "n_a", "n_b", "mean_a", "mean_b", "diff"],
    c.rows.map((r) => [r.task, r.category, r.nA, r.nB, r.meanA, r.meanB, r.diff]),
  );
}
