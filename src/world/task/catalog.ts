import { UserError } from "../../core/index.js";
import type { World } from "../build/world.js";
import { loadWorldTask, readTaskText, worldTaskFiles } from "./load.js";
import { WORLD_TASK_CATEGORIES, type WorldTaskSpec } from "./schema.js";

/** One task of a set, as the docs' table and `longhaul world list` show it. */
export interface WorldTaskCatalogRow {
  file: string;
  id: string;
  category: WorldTaskSpec["category"];
  variantOf: string | null;
  agents: number;
  /** Roles in team order of first appearance, repeated ones as `warrior ×2`. */
  roles: string;
  /** Rounds of the reference solution, when the task has one. */
  referenceRounds: number | null;
  maxRounds: number;
  /** The file's opening comment (what collaboration the task needs), as one paragraph. */
  summary: string;
}

/** The comment lines a task file opens with, joined; a variant's augment header included. */
export function openingComment(text: string): string {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("#")) break;
    const body = line.replace(/^#+ ?/, "").trim();
    if (body !== "") out.push(body);
  }
  return out.join(" ");
}

/** `warrior ×2, cook`: each role once, in the order the team first names it. */
export function roleSummary(spec: Pick<WorldTaskSpec, "team">): string {
  const counts = new Map<string, number>();
  for (const m of spec.team) counts.set(m.role, (counts.get(m.role) ?? 0) + 1);
  return [...counts].map(([role, n]) => (n > 1 ? `${role} ×${n}` : role)).join(", ");
}

/** Loads every task under the paths (files or folders) into catalog rows, in category order, then by id. */
export function worldTaskCatalog(paths: readonly string[], world: World): WorldTaskCatalogRow[] {
  // Ids are unique in a task set, as `world check` and `run` require: a list that showed two
  // tasks of one id would describe a set nothing else accepts.
  const seen = new Map<string, string>();
  const rows = worldTaskFiles(paths).map((file) => {
    const spec = loadWorldTask(file, world);
    const other = seen.get(spec.id);
    if (other !== undefined) throw new UserError(`${file}: id: "${spec.id}" is also the id of ${other}`);
    seen.set(spec.id, file);
    return {
      file,
      id: spec.id,
      category: spec.category,
      variantOf: spec.variant_of,
      agents: spec.team.length,
      roles: roleSummary(spec),
      referenceRounds: spec.reference?.length ?? null,
      maxRounds: spec.max_rounds,
      summary: openingComment(readTaskText(file)),
    };
  });
  const rank = (c: string) => WORLD_TASK_CATEGORIES.indexOf(c as WorldTaskSpec["category"]);
  return rows.sort((a, b) => rank(a.category) - rank(b.category) || a.id.localeCompare(b.id));
}

const SIZE_BANDS = [
  { label: "3 agents", min: 3, max: 3 },
  { label: "4–5 agents", min: 4, max: 5 },
  { label: "6–9 agents", min: 6, max: 9 },
  { label: "10+ agents", min: 10, max: 20 },
] as const;

const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");

/**
 * The docs' view of a task set: a count per category and team size, then one row per main task
 * (variants are counted, not listed: each says what it grew in its own header).
 */
export function catalogMarkdown(rows: readonly WorldTaskCatalogRow[]): string {
  const main = rows.filter((r) => r.variantOf === null);
  const variants = rows.length - main.length;
  const out: string[] = [];
  out.push(`| category | tasks | ${SIZE_BANDS.map((b) => b.label).join(" | ")} |`);
  out.push(`|---|---|${SIZE_BANDS.map(() => "---|").join("")}`);
  const line = (label: string, of: readonly WorldTaskCatalogRow[], bold: boolean) => {
    const b = (s: string | number) => (bold ? `**${s}**` : String(s));
    const sizes = SIZE_BANDS.map((band) =>
      b(of.filter((r) => r.agents >= band.min && r.agents <= band.max).length),
    );
    out.push(`| ${b(label)} | ${b(of.length)} | ${sizes.join(" | ")} |`);
  };
  for (const c of WORLD_TASK_CATEGORIES) {
    const of = main.filter((r) => r.category === c);
    if (of.length > 0) line(c, of, false);
  }
  line("all", main, true);
  out.push("");
  out.push(`${main.length} main tasks${variants > 0 ? ` and ${variants} variants (not listed)` : ""}.`);
  out.push("");
  out.push(
    "| Task | Category | Agents | Team | Reference / budget (rounds) | What it takes (the file's opening comment) |",
  );
  out.push("|---|---|---|---|---|---|");
  for (const r of main) {
    const ref = `${r.referenceRounds ?? "–"} / ${r.maxRounds}`;
    out.push(
      `| \`${r.id}\` | ${r.category} | ${r.agents} | ${cell(r.roles)} | ${ref} | ${cell(r.summary)} |`,
    );
  }
  return `${out.join("\n")}\n`;
}
