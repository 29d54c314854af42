import type { Experiment, ExperimentCell } from "./experiment-schema.js";
import type { Variant } from "./variants.js";

export const EXPERIMENT_TABLE_HEADER = ["variant", "depth", "n", "success", "mean R", "turns", "tool calls"];

function num(x: number | null, digits: number): string {
  return x === null ? "-" : x.toFixed(digits);
}

/** One row per variant and depth, as `scale experiment` prints them. */
export function experimentRows(e: Experiment): string[][] {
  return e.cells.map((c) => [
    c.variant,
    String(c.depth),
    String(c.n),
    num(c.success_rate, 2),
    num(c.mean_reward, 3),
    num(c.mean_turns, 1),
    num(c.mean_tool_calls, 1),
  ]);
}

/** Colours per variant, fixed so charts of different experiments read alike. */
const COLOURS: Record<Variant, string> = {
  full: "#1f77b4",
  "no-xref-prep": "#d62728",
  basic: "#2ca02c",
  independent: "#9467bd",
};

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const W = 460;
const H = 280;
const M = { left: 48, right: 16, top: 28, bottom: 40 };

/**
 * A line chart drawn as SVG on the host (no script, no network): one line per variant of
 * `metric` (0 to 1) against depth; a depth without trials is a gap in the line.
 */
export function chartSvg(e: Experiment, metric: "success_rate" | "mean_reward", title: string): string {
  const maxDepth = Math.max(1, ...e.depths);
  const x = (d: number): number => M.left + (d / maxDepth) * (W - M.left - M.right);
  const y = (v: number): number => H - M.bottom - v * (H - M.top - M.bottom);
  const parts: string[] = [
    `<svg class="chart" data-metric="${metric}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}">`,
    `<text x="${W / 2}" y="16" text-anchor="middle" class="title">${esc(title)}</text>`,
  ];
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y(v)}" y2="${y(v)}" class="grid"/>`,
      `<text x="${M.left - 6}" y="${y(v) + 4}" text-anchor="end" class="tick">${v}</text>`,
    );
  }
  for (const d of e.depths) {
    parts.push(`<text x="${x(d)}" y="${H - M.bottom + 16}" text-anchor="middle" class="tick">${d}</text>`);
  }
  parts.push(
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 6}" text-anchor="middle" class="tick">depth</text>`,
  );
  e.variants.forEach((variant, i) => {
    const colour = COLOURS[variant];
    // Variants with equal values would hide each other: each line is nudged a pixel or two.
    const nudge = (i - (e.variants.length - 1) / 2) * 2;
    const points = e.cells
      .filter(
        (c): c is ExperimentCell & Record<typeof metric, number> =>
          c.variant === variant && c[metric] !== null,
      )
      .sort((a, b) => a.depth - b.depth);
    if (points.length === 0) return;
    const coords = points
      .map((c) => `${x(c.depth).toFixed(1)},${(y(c[metric]) + nudge).toFixed(1)}`)
      .join(" ");
    parts.push(
      `<polyline class="series" data-variant="${variant}" fill="none" stroke="${colour}" stroke-width="2" points="${coords}"/>`,
    );
    for (const c of points) {
      parts.push(
        `<circle cx="${x(c.depth).toFixed(1)}" cy="${(y(c[metric]) + nudge).toFixed(1)}" r="3.5" fill="${colour}"><title>${esc(variant)} depth ${c.depth}: ${c[metric]} (n = ${c.n})</title></circle>`,
      );
    }
  });
  parts.push("</svg>");
  return parts.join("\n");
}

function legend(e: Experiment): string {
  return e.variants
    .map(
      (v) =>
        `<span class="key"><span class="swatch" style="background:${COLOURS[v]}"></span>${esc(v)}</span>`,
    )
    .join(" ");
}

/**
 * experiment.html: one self-contained page (styles and charts inline, no script, no link out),
 * so it opens offline: success rate and mean R against depth, one line per variant, and the table.
 */
export function renderExperimentHtml(e: Experiment): string {
  const rows = experimentRows(e)
    .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`)
    .join("\n");
  const who = e.model === null ? e.agent : `${e.agent} (${e.model})`;
  const tasks = e.tasks.map((t) => esc(t.name)).join(", ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>RES experiment: ${esc(who)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
.charts { display: flex; flex-wrap: wrap; gap: 24px; }
.chart .grid { stroke: #e3e3e3; }
.chart .tick { font-size: 11px; fill: #555; }
.chart .title { font-size: 13px; font-weight: 600; }
.key { margin-right: 14px; }
.swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: middle; }
table { border-collapse: collapse; margin-top: 16px; }
td, th { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
td:first-child, th:first-child { text-align: left; }
.muted { color: #777; }
</style>
</head>
<body>
<h1>RES experiment: ${esc(who)}</h1>
<p class="muted">tasks: ${tasks}; ${e.attempts} attempt(s) per node; success: R ≥ ${e.threshold}; job ${esc(e.job.id)}; ${esc(e.created_at)}</p>
<p>${legend(e)} <span class="muted">(lines with equal values are drawn a pixel or two apart)</span></p>
<div class="charts">
${chartSvg(e, "success_rate", "success rate vs depth")}
${chartSvg(e, "mean_reward", "mean R vs depth")}
</div>
<table>
<thead><tr>${EXPERIMENT_TABLE_HEADER.map((h) => `<th>${h}</th>`).join("")}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`;
}
