import type { Summary } from "../analysis/summary-types.js";
import { chartData } from "./chart-data.js";
import { num } from "./format.js";
import { browserBundles, pagePolicy, policyMeta, scriptSafe } from "./html-assets.js";
import { CLIENT_SCRIPT } from "./html-client.js";
import { jobStatusLine } from "./job-lines.js";
import { buildSections, headline, type SectionOptions } from "./sections.js";

/** Every chart container, by stable id; tests and readers can rely on these. */
export const CHART_IDS = [
  "chart-reward-dist",
  "chart-pass-vs-reward",
  "chart-cost-frontier",
  "chart-category-heatmap",
  "chart-subtask-heatmap",
  "chart-outcomes",
] as const;

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(HTML_CONTROL, "\uFFFD");
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must not reach the page
const HTML_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** JSON inside <script type="application/json">: `<` escaped so no text can close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#1b1b1b}
h1{font-size:22px}h2{font-size:17px;margin-top:32px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:12.5px;margin:8px 0}
th,td{padding:3px 8px;border-bottom:1px solid #e3e3e3;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}th{background:#f6f6f6}
.note{color:#555;margin:4px 0}.job-status{font-weight:600}.job-status.partial{color:#a33}.chart{min-height:80px;overflow-x:auto}
`;

export interface HtmlOptions extends SectionOptions {
  title?: string;
}

/**
 * One self-contained HTML file: the summary inlined as JSON, d3 and Observable Plot inlined as
 * scripts, charts drawn in the browser. It makes no network request, so it opens offline.
 */
export function renderHtml(summary: Summary, opts: HtmlOptions = {}): string {
  const title = opts.title ?? "longhaul report";
  const tables = buildSections(summary, opts)
    .map((sec) => {
      const head = `<tr>${sec.header.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr>`;
      const body = sec.rows
        .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`)
        .join("\n");
      const notes = sec.notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join("");
      return `<h2>${escapeHtml(sec.title)}</h2>\n<table>\n${head}\n${body}\n</table>${notes}`;
    })
    .join("\n");
  const jobs = (summary.jobs ?? [])
    .map((j) => {
      const partial = j.status !== "finished" || j.missing > 0 ? " partial" : "";
      return `<p class="job-status${partial}" data-status="${escapeHtml(j.status)}">${escapeHtml(jobStatusLine(j))}</p>\n`;
    })
    .join("");
  const charts = chartData(summary);
  const chart = (id: string, heading: string) =>
    `<h2>${escapeHtml(heading)}</h2>\n<div class="chart" id="${id}"></div>`;
  const dropped =
    charts.subtaskRowsDropped > 0
      ? ` (first rows only; ${charts.subtaskRowsDropped} more in the JSON data)`
      : "";
  const [d3, plot] = browserBundles();
  const scripts = [scriptSafe(d3 ?? ""), scriptSafe(plot ?? ""), scriptSafe(CLIENT_SCRIPT)];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${policyMeta(pagePolicy(scripts))}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${jobs}<p class="note">${escapeHtml(headline(summary))}</p>
${tables}
${chart("chart-reward-dist", "Reward distribution per group")}
${chart("chart-pass-vs-reward", `Pass@1 (R ≥ 0.95) vs mean R — Spearman ρ = ${num(charts.rho, 2)} (at R = 1: ${num(summary.correlation.rho100, 2)})`)}
${chart("chart-cost-frontier", "Cost vs pass rate, with the Pareto frontier")}
${chart("chart-category-heatmap", "Mean R by category")}
${chart("chart-subtask-heatmap", `Mean subtask score${dropped}`)}
${chart("chart-outcomes", "Outcomes")}
<script type="application/json" id="report-data">${jsonForScript({ summary, charts })}</script>
${scripts.map((js) => `<script>${js}</script>`).join("\n")}
</body>
</html>
`;
}
