import type { Rate } from "../analysis/stats.js";
import type { GroupMetrics, ReportedJob, Summary } from "../analysis/summary-types.js";
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
  // Job rows only (level `job`); last, so the columns before keep their places.
  "job_status",
  "job_planned_trials",
  "job_recorded_trials",
  "job_missing_trials",
  "job_resume",
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
    null,
    null,
    null,
    null,
    null,
  ];
}

/** A row with only the named columns filled; the others are empty. */
function sparseRow(cells: Partial<Record<(typeof CSV_HEADER)[number], Cell>>): Cell[] {
  return CSV_HEADER.map((col) => cells[col] ?? null);
}

/**
 * A job the report read, as one row of its own: a group row may pool several jobs, so a status
 * column on it could not say which job is partial.
 */
function jobRow(j: ReportedJob): Cell[] {
  return sparseRow({
    level: "job",
    label: j.id,
    job_status: j.status,
    job_planned_trials: j.planned,
    job_recorded_trials: j.recorded,
    job_missing_trials: j.missing,
    job_resume: j.resume,
  });
}

/**
 * One row per group at every level (overall, group, category, task, subtask), then one per job
 * the report read (`job`: its status, planned, recorded and missing trials and resume command);
 * the `level` column tells them apart. Subtask rows use pass_095 for "score ≥ 0.95" and
 * mean_reward for the mean subtask score; columns that do not apply are empty.
 */
export function renderCsv(summary: Summary): string {
  const rows: Cell[][] = [summary.overall, ...summary.groups, ...summary.byCategory, ...summary.byTask].map(
    groupRow,
  );
  for (const s of summary.bySubtask) {
    rows.push(
      sparseRow({
        level: "subtask",
        label: `${s.groupLabel} · ${s.task} · ${s.subtask}`,
        agent: s.key.agent ?? null,
        model: s.key.model ?? null,
        category: s.key.category ?? null,
        task: s.task,
        subtask: s.subtask,
        scored: s.n,
        pass_095_k: s.solved.k,
        pass_095_n: s.solved.n,
        pass_095_p: s.solved.p,
        pass_095_lo: s.solved.lo,
        pass_095_hi: s.solved.hi,
        mean_reward: s.meanScore,
      }),
    );
  }
  // After every metric row, so the rows before keep their order for readers that rely on it.
  rows.push(...(summary.jobs ?? []).map(jobRow));
  return csvLines(CSV_HEADER, rows);
}
