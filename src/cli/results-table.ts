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
    const scored = list.filter((t) => t.reward !== null);
    const mean = scored.length > 0 ? scored.reduce((s, t) => s + (t.reward ?? 0), 0) / scored.length : null;
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
      const scored = list.filter((t) => t.reward !== null);
      const mean = scored.length > 0 ? scored.reduce((s, t) => s + (t.reward ?? 0), 0) / scored.length : null;
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
        String(list.length - scored.length),
      ];
    });
  return formatTable(header, rows);
}

export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const fmt = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...rows.map(fmt)].join("\n");
}
