import type { Summary } from "../analysis/summary-types.js";
import { alignTable } from "./format.js";
import { jobStatusLines } from "./job-lines.js";
import { buildSections, headline, type SectionOptions } from "./sections.js";

/** Aligned plain text for terminals; rates as `k/n (p%)`. */
export function renderTable(summary: Summary, opts: SectionOptions = {}): string {
  const parts = [...jobStatusLines(summary), headline(summary)];
  for (const sec of buildSections(summary, opts)) {
    parts.push("", sec.title, alignTable(sec.header, sec.rows), ...sec.notes);
  }
  return `${parts.join("\n")}\n`;
}
