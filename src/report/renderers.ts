import type { Summary } from "../analysis/summary-types.js";
import { UserError } from "../core/errors.js";
import { renderCsv } from "./render-csv.js";
import { renderHtml } from "./render-html.js";
import { renderJson } from "./render-json.js";
import { renderMarkdown } from "./render-markdown.js";
import { renderTable } from "./render-table.js";

/** What every report renderer is given besides the summary. */
export interface RenderOptions {
  /** Extra breakdown tables (renderers that draw tables honour them). */
  breakdowns?: readonly ("category" | "task")[];
  /** A title for formats that carry one (HTML). */
  title?: string;
}

/** A report format: turns a summary into text (a terminal table, JSON, CSV, Markdown, HTML…). */
export interface ReportRenderer {
  readonly description: string;
  render(summary: Summary, options: RenderOptions): string;
}

const renderers = new Map<string, ReportRenderer>([
  [
    "table",
    {
      description: "aligned text tables",
      render: (s, o) => renderTable(s, { breakdowns: o.breakdowns ?? [] }),
    },
  ],
  ["json", { description: "one JSON document (the whole summary)", render: (s) => renderJson(s) }],
  ["csv", { description: "one row per group and level", render: (s) => renderCsv(s) }],
  [
    "md",
    {
      description: "Markdown tables",
      render: (s, o) => renderMarkdown(s, { breakdowns: o.breakdowns ?? [] }),
    },
  ],
  [
    "html",
    {
      description: "one self-contained HTML page with charts",
      render: (s, o) =>
        renderHtml(s, { breakdowns: o.breakdowns ?? [], title: o.title ?? "longhaul report" }),
    },
  ],
]);

/** Adds (or replaces) a report format under `name`, e.g. from a plugin. */
export function registerReportRenderer(name: string, renderer: ReportRenderer): void {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) {
    throw new UserError(`report format name ${JSON.stringify(name)} must be lowercase letters, digits and -`);
  }
  renderers.set(name, renderer);
}

/** The renderer of a format; an unknown name is a UserError that lists the known ones. */
export function getReportRenderer(name: string): ReportRenderer {
  const r = renderers.get(name);
  if (r === undefined) {
    throw new UserError(`unknown report format "${name}" (known: ${listReportRenderers().join(", ")})`);
  }
  return r;
}

/** Names of the known report formats: the built-in ones first, then those registered, in order. */
export function listReportRenderers(): string[] {
  return [...renderers.keys()];
}
