import { countedReward, isPass, isPerfect, isScored } from "../analysis/group-metrics.js";
import { THRESHOLDS } from "../analysis/summary-types.js";
import type { TrialResult } from "../core/index.js";
import { formatTable as layoutTable } from "../report/format.js";

const PASS_LABEL = `R≥${THRESHOLDS.pass}`;
const PERFECT_LABEL = `R=${THRESHOLDS.perfect.toFixed(1)}`;

/**
 * The per-task table printed at the end of `longhaul run`: one row per task × agent × model,
 * grouped by category, with mean R over attempts and the outcomes seen.
 */
export function renderRunTable(trials: TrialResult[]): string {
  const groups = new Map<string, TrialResult[]>();
  for (const t of trials) {
    const key = [t.task.category, t.task.name, t.agent, t.model ?? "-"].join("\u0000");
    const list = groups.get(key) ?? [];
    list.push(t);
    groups.set(key, list);
  }
  const header = ["category", "task", "agent", "model", "n", "mean R", PASS_LABEL, "outcomes"];
  const rows: string[][] = [];
  for (const [key, list] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const [category, task, agent, model] = key.split("\u0000") as [string, string, string, string];
    const scored = counted(list);
    const mean = meanReward(scored);
    const pass = scored.filter(isPass).length;
    const outcomes = new Map<string, number>();
    for (const t of list) outcomes.set(t.outcome, (outcomes.get(t.outcome) ?? 0) + 1);
    rows.push([
      category,
      task,
      agent,
      model,
      String(list.length),
      mean === null ? "-" : mean.toFixed(3),
      `${pass}/${scored.length}`,
      [...outcomes.entries()].map(([o, n]) => `${o}:${n}`).join(" "),
    ]);
  }
  return formatTable(header, rows);
}

/** Per category × agent × model: trials, mean R, and Pass@1 at both thresholds (analysis's THRESHOLDS). */
export function renderCategoryTable(trials: TrialResult[]): string {
  const groups = new Map<string, TrialResult[]>();
  for (const t of trials) {
    const key = [t.task.category, t.agent, t.model ?? "-"].join("\u0000");
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const header = ["category", "agent", "model", "trials", "mean R", PASS_LABEL, PERFECT_LABEL, "errors"];
  const rows = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, list]) => {
      const [category, agent, model] = key.split("\u0000") as [string, string, string];
      const scored = counted(list);
      const mean = meanReward(scored);
      const at = (passes: (t: TrialResult) => boolean): string =>
        `${scored.filter(passes).length}/${scored.length}`;
      return [
        category,
        agent,
        model,
        String(list.length),
        mean === null ? "-" : mean.toFixed(3),
        at(isPass),
        at(isPerfect),
        String(list.filter((t) => t.outcome === "grading_error" || t.outcome === "infra_error").length),
      ];
    });
  return formatTable(header, rows);
}

/** The trials a rate counts, as in the report: every one but infrastructure failures (analysis's isScored). */
function counted(list: TrialResult[]): TrialResult[] {
  return list.filter(isScored);
}

function meanReward(list: TrialResult[]): number | null {
  return list.length > 0 ? list.reduce((s, t) => s + countedReward(t), 0) / list.length : null;
}

/**
 * Trials whose verifier output broke the reward contract or could not be read, one line each with
 * the reason: they are shown loudly because they are not agent scores.
 */
export function renderGradingErrors(trials: TrialResult[]): string {
  const broken = trials.filter((t) => t.outcome === "grading_error");
  if (broken.length === 0) return "";
  const lines = broken.map(
    (t) =>
      `  ${terminalSafe(t.trial_id)}: ${terminalSafe(t.error?.message ?? t.grading_errors[0] ?? "unknown")}`,
  );
  return [`grading errors (${broken.length}; counted as R = 0, not as agent scores):`, ...lines].join("\n");
}

/**
 * Text from trials (task names, messages) may hold terminal escape sequences or invalid UTF-8;
 * control characters are shown as U+FFFD so nothing a task or agent wrote can drive the terminal.
 */
export function terminalSafe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "\uFFFD");
}

/** A left-aligned table of text from trials, made terminal-safe cell by cell. */
export function formatTable(header: string[], rawRows: string[][]): string {
  return layoutTable(
    header,
    rawRows.map((r) => r.map(terminalSafe)),
    { align: "left" },
  );
}
