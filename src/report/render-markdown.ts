import type { Summary } from "../analysis/summary-types.js";
import { jobStatusLines } from "./job-lines.js";
import { buildSections, headline, type SectionOptions } from "./sections.js";

/** A Markdown table cell: pipes and backslashes escaped, line breaks flattened. */
export function markdownCell(s: string): string {
  return s
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/\r?\n|\r/g, " ");
}

/** The report as Markdown: a title, the headline and one table per section. */
export function renderMarkdown(summary: Summary, opts: SectionOptions & { title?: string } = {}): string {
  const jobs = jobStatusLines(summary).map((l) => `**${markdownCell(l)}**`);
  const out = [
    `# ${opts.title ?? "longhaul report"}`,
    "",
    ...jobs.flatMap((l) => [l, ""]),
    headline(summary),
  ];
  for (const sec of buildSections(summary, opts)) {
    out.push("", `## ${sec.title}`, "");
    out.push(`| ${sec.header.map(markdownCell).join(" | ")} |`);
    out.push(`|${sec.header.map((_, i) => (i === 0 ? " --- " : " ---: ")).join("|")}|`);
    for (const row of sec.rows) out.push(`| ${row.map(markdownCell).join(" | ")} |`);
    if (sec.notes.length > 0) out.push("", ...sec.notes.map((n) => `- ${n}`));
  }
  return `${out.join("\n")}\n`;
}
