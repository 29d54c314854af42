import type { TrialResult } from "../core/index.js";

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
  const header = ["category", "task", "agent", "model", "n", "mean R", "R≥0.95", "outcomes"];
  const rows: string[][] = [];
  for (const [key, list] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const [category, task, agent, model] = key.split("\u0000") as [string, string, string, string];
    const scored = counted(list);
    const mean = meanReward(scored);
    const pass = scored.filter((t) => (t.reward ?? 0) >= 0.95).length;
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

/** Per category × agent × model: trials, mean R, and Pass@1 at both thresholds. */
export function renderCategoryTable(trials: TrialResult[]): string {
  const groups = new Map<string, TrialResult[]>();
  for (const t of trials) {
    const key = [t.task.category, t.agent, t.model ?? "-"].join("\u0000");
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const header = ["category", "agent", "model", "trials", "mean R", "R≥0.95", "R=1.0", "errors"];
  const rows = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, list]) => {
      const [category, agent, model] = key.split("\u0000") as [string, string, string];
      const scored = counted(list);
      const mean = meanReward(scored);
      const at = (x: number): string =>
        `${scored.filter((t) => (t.reward ?? 0) >= x).length}/${scored.length}`;
      return [
        category,
        agent,
        model,
        String(list.length),
        mean === null ? "-" : mean.toFixed(3),
        at(0.95),
        at(1),
        String(list.filter((t) => t.outcome === "grading_error" || t.outcome === "infra_error").length),
      ];
    });
  return formatTable(header, rows);
}

/**
 * The trials a rate counts: every one but infrastructure failures. A grading error counts as not
 * passing and as R = 0, so nothing an agent does to its environment can take a trial out of the rates.
 */
function counted(list: TrialResult[]): TrialResult[] {
  return list.filter((t) => t.outcome !== "infra_error");
}

function meanReward(list: TrialResult[]): number | null {
  return list.length > 0 ? list.reduce((s, t) => s + (t.reward ?? 0), 0) / list.length : null;
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

export function formatTable(header: string[], rawRows: string[][]): string {
  const rows = rawRows.map((r) => r.map(terminalSafe));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const fmt = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...rows.map(fmt)].join("\n");
}
