/** Building blocks for the viewer's server-rendered pages. Every value from a result file goes through `esc`. */

import { pagePolicy, policyMeta } from "../report/html-assets.js";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function esc(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  return String(value)
    .replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch)
    .replace(CONTROL, "\uFFFD");
}

/**
 * Control characters other than tab and line breaks: output an agent printed may carry terminal
 * escape sequences, and a page should show that something was there, not pass it on.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

export function fmtReward(r: number | null): string {
  return r === null ? "—" : r.toFixed(3);
}

export function fmtSec(s: number): string {
  if (s < 59.95) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  if (whole < 3600) return `${Math.floor(whole / 60)} m ${whole % 60} s`;
  const minutes = Math.round(s / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} m`;
}

export function fmtUsd(x: number): string {
  return `$${x.toFixed(x < 1 ? 4 : 2)}`;
}

export function fmtInt(n: number): string {
  return n.toLocaleString("en-US");
}

/** Text longer than `max` characters is cut, saying how much was left out. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${fmtInt(text.length - max)} more characters not shown)`;
}

/**
 * Text longer than `max` characters keeps its end, saying how much was left out before it: for the
 * tail of a log, whose end (the failure, the summary) is what matters.
 */
export function clipStart(text: string, max: number): string {
  if (text.length <= max) return text;
  return `… (${fmtInt(text.length - max)} earlier characters not shown)\n${text.slice(text.length - max)}`;
}

/** Long texts (observations, logs) are cut so one trial page stays a reasonable size. */
export const MAX_TEXT = 20_000;

/** A text block, cut at MAX_TEXT characters. */
export function pre(text: string, cls = ""): string {
  return `<pre${cls ? ` class="${cls}"` : ""}>${esc(clip(text, MAX_TEXT))}</pre>`;
}

/** A text block that keeps the last MAX_TEXT characters (a log's tail). */
export function preTail(text: string): string {
  return `<pre>${esc(clipStart(text, MAX_TEXT))}</pre>`;
}

export function outcomeBadge(outcome: string): string {
  return `<span class="badge o-${esc(outcome)}">${esc(outcome)}</span>`;
}

export function table(header: string[], rows: string[][], attrs = ""): string {
  const head = `<tr>${header.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>`;
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("\n");
  return `<table ${attrs}><thead>${head}</thead><tbody>\n${body}\n</tbody></table>`;
}

/** Two-column key/value table; values are HTML already escaped by the caller. */
export function facts(pairs: [string, string][]): string {
  return `<table class="facts">${pairs.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join("")}</table>`;
}

const CSS = `
:root { color-scheme: light dark; --fg:#1b1f24; --muted:#5f6b7a; --line:#d5dbe3; --bg:#fff; --alt:#f5f7fa; --accent:#2563eb; }
@media (prefers-color-scheme: dark) { :root { --fg:#e6e9ee; --muted:#9aa6b5; --line:#333b47; --bg:#14181e; --alt:#1b2129; --accent:#6ea1ff; } }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: var(--fg); background: var(--bg); }
header.top { padding: 10px 20px; border-bottom: 1px solid var(--line); display: flex; gap: 16px; align-items: baseline; }
header.top a.home { font-weight: 600; color: var(--fg); text-decoration: none; }
main { padding: 16px 20px; max-width: 1400px; }
a { color: var(--accent); }
h1 { font-size: 20px; margin: 0 0 12px; word-break: break-all; }
h2 { font-size: 16px; margin: 22px 0 8px; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 4px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { background: var(--alt); }
#trials thead th { position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.facts th { color: var(--muted); font-weight: normal; }
pre { background: var(--alt); padding: 8px 10px; overflow: auto; max-height: 480px; white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
.muted { color: var(--muted); }
.badge { padding: 1px 6px; border-radius: 8px; font-size: 12px; background: var(--alt); border: 1px solid var(--line); }
.o-completed { border-color: #16a34a; } .o-agent_timeout { border-color: #d97706; }
.o-agent_error, .o-grading_error, .o-infra_error { border-color: #dc2626; }
form.filters { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: end; margin-bottom: 12px; }
form.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
form.filters input[type=number] { width: 6em; }
.pager { margin: 10px 0; display: flex; gap: 14px; align-items: center; }
.step { border-left: 3px solid var(--line); padding: 2px 0 2px 10px; margin: 10px 0; }
.step.s-agent { border-color: var(--accent); } .step.s-user { border-color: #16a34a; }
.step .meta { font-size: 12px; color: var(--muted); }
.player pre.screen { background: #0d1117; color: #d1d7e0; max-height: 560px; min-height: 120px; white-space: pre; font: 13px/1.3 ui-monospace, monospace; }
.player .controls { display: flex; gap: 10px; align-items: center; margin: 6px 0; }
.error { color: #dc2626; }
`;

export function page(title: string, body: string, script = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${policyMeta(pagePolicy([script], ["connect-src 'self'", "form-action 'self'"]))}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · longhaul</title>
<style>${CSS}</style>
</head>
<body>
<header class="top"><a class="home" href="/">longhaul results</a><span class="muted">${esc(title)}</span></header>
<main>
${body}
</main>
${script ? `<script>${script}</script>` : ""}
</body>
</html>`;
}

export function errorPage(status: number, message: string): string {
  return page(
    `error ${status}`,
    `<h1>${status}</h1><p class="error">${esc(message)}</p><p><a href="/">all jobs</a></p>`,
  );
}
