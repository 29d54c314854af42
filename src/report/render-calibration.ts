import type { Calibration } from "../analysis/calibrate.js";
import { UserError } from "../core/errors.js";
import { calibrationChart } from "./calibration-chart.js";
import { calibrationHeadline, calibrationSections } from "./calibration-sections.js";
import { formatTable } from "./format.js";
import { pagePolicy, policyMeta } from "./html-assets.js";
import { escapeHtml, jsonForScript } from "./render-html.js";

/** Text tables: the headline, then each section with its notes. */
export function renderCalibrationTable(c: Calibration): string {
  const out = [calibrationHeadline(c)];
  for (const sec of calibrationSections(c)) {
    out.push("", sec.title, formatTable(sec.header, sec.rows, { align: "left" }), ...sec.notes);
  }
  out.push("", proposedLine(c));
  return `${out.join("\n")}\n`;
}

function proposedLine(c: Calibration): string {
  return `proposed (${c.proposed.length}): ${c.proposed.join(", ") || "none"}`;
}

/** Pipes and backslashes would break a Markdown table cell. */
function mdCell(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\n/g, " ");
}

export function renderCalibrationMarkdown(c: Calibration, title = "Task calibration"): string {
  const out = [`# ${title}`, "", calibrationHeadline(c)];
  for (const sec of calibrationSections(c)) {
    out.push("", `## ${sec.title}`, "");
    out.push(`| ${sec.header.map(mdCell).join(" | ")} |`);
    out.push(`|${sec.header.map(() => " --- ").join("|")}|`);
    for (const row of sec.rows) out.push(`| ${row.map(mdCell).join(" | ")} |`);
    out.push("", ...sec.notes.map((n) => `- ${n}`));
  }
  out.push("", proposedLine(c));
  return `${out.join("\n")}\n`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1b1b1b}
h1{font-size:22px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:12.5px;margin:8px 0}
th,td{padding:3px 8px;border-bottom:1px solid #e3e3e3;text-align:right;white-space:nowrap}
th:nth-child(-n+3),td:nth-child(-n+3),th:last-child,td:last-child{text-align:left}th{background:#f6f6f6}
tr.in-band td{background:#eef4ff}tr.picked td{font-weight:600}
.note{color:#555;margin:4px 0}svg text{font:11px system-ui,sans-serif;fill:#333}
`;

/**
 * One self-contained page: the tables and a chart of mean R against solve rate drawn as inline
 * SVG on the host, so the page needs no script, no bundle and no network to show it.
 */
export function renderCalibrationHtml(c: Calibration, title = "Task calibration"): string {
  const picked = new Set(c.target?.picked ?? []);
  const inBand = new Set(c.proposed);
  const tables = calibrationSections(c)
    .map((sec, i) => {
      const head = `<tr>${sec.header.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr>`;
      const body = sec.rows
        .map((r) => {
          const task = i === 0 ? (r[1] ?? "") : "";
          const cls = [inBand.has(task) ? "in-band" : "", picked.has(task) ? "picked" : ""].join(" ").trim();
          const attr = cls === "" ? "" : ` class="${cls}"`;
          return `<tr${attr}>${r.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`;
        })
        .join("\n");
      const notes = sec.notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join("");
      return `<h2>${escapeHtml(sec.title)}</h2>\n<table>\n${head}\n${body}\n</table>${notes}`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${policyMeta(pagePolicy([]))}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="note">${escapeHtml(calibrationHeadline(c))}</p>
<h2>Mean R against solve rate</h2>
${calibrationChart(c)}
<p class="note">Blue: in the band; ringed: picked for the target; grey: outside the band; hollow: too few attempts to place. Tasks at the same point overlap: hover a dot for its name.</p>
${tables}
<p class="note">${escapeHtml(proposedLine(c))}</p>
<script type="application/json" id="calibration-data">${jsonForScript(c)}</script>
</body>
</html>
`;
}

/** The formats of `longhaul dataset calibrate`. */
export const CALIBRATION_FORMATS = ["table", "json", "md", "html"] as const;
export type CalibrationFormat = (typeof CALIBRATION_FORMATS)[number];

export function parseCalibrationFormat(value: string): CalibrationFormat {
  const f = CALIBRATION_FORMATS.find((x) => x === value);
  if (f === undefined)
    throw new UserError(`--format must be one of ${CALIBRATION_FORMATS.join(", ")}, got "${value}"`);
  return f;
}

/** A calibration in one of its formats. */
export function renderCalibration(c: Calibration, format: CalibrationFormat, title?: string): string {
  switch (format) {
    case "table":
      return renderCalibrationTable(c);
    case "json":
      return `${JSON.stringify(c, null, 2)}\n`;
    case "md":
      return renderCalibrationMarkdown(c, title);
    case "html":
      return renderCalibrationHtml(c, title);
  }
}
