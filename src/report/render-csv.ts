import type { Rate } from "../analysis/stats.js";
import type { GroupMetrics, Summary } from "../analysis/summary-types.js";
import { OUTCOMES } from "../core/trial-result.js";

type Cell = string | number | null;

/** RFC 4180 quoting; numbers at full precision so the file can be re-analysed. */
export function csvCell(v: Cell): string {
  if (v === null) return "";
  const s = typeof v === "string" ? defuseFormula(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A text cell that a spreadsheet would run as a formula (`=`, `@`, a tab or carriage return, or
 * `+`/`-` not starting a number) gets a leading `'`: names come from task folders and imported
 * files that anyone may have written. Numbers, and text like "-0.5", are left as they are.
 */
function defuseFormula(s: string): string {
  if (/^[=@\t\r]/.test(s) || (/^[+-]/.test(s) && !/^[+-](\d|\.\d|Infinity$)/.test(s))) return `'${s}`;
  return s;
}

export function csvLines(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return `${[header, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

const rateCols = (name: string) => [`${name}_k`, `${name}_n`, `${name}_p`, `${name}_lo`, `${name}_hi`];
const rateCells = (r: Rate | null): Cell[] =>
  r === null ? [null, null, null, null, null] : [r.k, r.n, r.p, r.lo, r.hi];

export const CSV_HEADER = [
  "level",
  "label",
  "agent",
  "model",
  "category",
  "task",
  "subtask",
  "trials",
  "scored",
  ...rateCols("pass_095"),
  ...rateCols("pass_100"),
  "mean_reward",
  "mean_reward_lo",
  "mean_reward_hi",
  ...rateCols("near_miss"),
  ...rateCols("false_finish"),
  ...rateCols("stopped_early"),
  "false_finish_budget_left_n",
  "false_finish_budget_left_mean_sec",
  "false_finish_budget_left_median_sec",
  ...rateCols("timeout_share"),
  ...OUTCOMES,
  "grading_error_first_reason",
  "mean_turns",
  "mean_tokens",
  "mean_cost_usd",
  "cost_per_resolved_usd",
  "cost_unknown_trials",
] as const;

function groupRow(g: GroupMetrics): Cell[] {
  return [
    g.level,
    g.label,
    g.key.agent ?? null,
    g.key.model ?? null,
    g.key.category ?? null,
    g.key.task ?? null,
    null,
    g.trials,
    g.scored,
    ...rateCells(g.pass095),
    ...rateCells(g.pass100),
    g.meanReward.value,
    g.meanReward.lo,
    g.meanReward.hi,
    ...rateCells(g.nearMiss),
    ...rateCells(g.falseFinish),
    ...rateCells(g.stoppedEarly),
    g.falseFinishBudget?.n ?? null,
    g.falseFinishBudget?.meanSec ?? null,
    g.falseFinishBudget?.medianSec ?? null,
    ...rateCells(g.timeoutShare),
    ...OUTCOMES.map((o) => g.outcomes[o]),
    g.gradingErrors.firstReason,
    g.usage.meanTurns,
    g.usage.meanTokens,
    // An unknown cost is an empty cell plus cost_unknown_trials > 0, never 0.
    g.usage.meanCost,
    g.usage.costPerResolved,
    g.usage.costUnknown,
  ];
}

/**
 * One row per group at every level (overall, group, category, task, subtask); the `level`
 * column tells them apart. Subtask rows use pass_095 for "score ≥ 0.95" and mean_reward for the
 * mean subtask score; columns that do not apply are empty.
 */
export function renderCsv(summary: Summary): string {
  const rows: Cell[][] = [summary.overall, ...summary.groups, ...summary.byCategory, ...summary.byTask].map(
    groupRow,
  );
  for (const s of summary.bySubtask) {
    const row: Cell[] = new Array<Cell>(CSV_HEADER.length).fill(null);
    const set = (col: (typeof CSV_HEADER)[number], v: Cell) => {
      row[CSV_HEADER.indexOf(col)] = v;
    };
    set("level", "subtask");
    set("label", `${s.groupLabel} · ${s.task} · ${s.subtask}`);
    set("agent", s.key.agent ?? null);
    set("model", s.key.model ?? null);
    set("category", s.key.category ?? null);
    set("task", s.task);
    set("subtask", s.subtask);
    set("scored", s.n);
    set("pass_095_k", s.solved.k);
    set("pass_095_n", s.solved.n);
    set("pass_095_p", s.solved.p);
    set("pass_095_lo", s.solved.lo);
    set("pass_095_hi", s.solved.hi);
    set("mean_reward", s.meanScore);
    rows.push(row);
  }
  return csvLines(CSV_HEADER, rows);
}
