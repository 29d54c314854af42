import type { AnalysisTrial } from "./summary-types.js";

/**
 * One agent × model × modifier set's world trials by attempt: SR and PSR per attempt and their
 * spread.
 */
export interface WorldSeedRow {
  label: string;
  /** Per attempt (each attempt of a job has its own seed), in attempt order. */
  attempts: { attempt: number; tasks: number; successes: number; sr: number; psr: number }[];
  /** Max − min over attempts, and the sample standard deviation (null with one attempt). */
  srSpread: { range: number; sd: number | null };
  psrSpread: { range: number; sd: number | null };
}

/**
 * Repeatability of world results: the same team on the same tasks, attempt by attempt (a seed
 * each). SR is the share of tasks whose success condition held, PSR the mean R. Infrastructure
 * failures are left out, as everywhere.
 */
export function worldSeedRows(trials: readonly AnalysisTrial[]): WorldSeedRow[] {
  const groups = new Map<string, AnalysisTrial[]>();
  for (const t of trials) {
    if (!t.world || t.outcome === "infra_error") continue;
    // Trials under different modifiers are different conditions: never pooled, named in the label.
    const mods = t.world.modifiers ?? [];
    const team = t.model === null ? t.agent : `${t.agent} / ${t.model}`;
    const label = mods.length === 0 ? team : `${team} [${mods.join(", ")}]`;
    groups.set(label, [...(groups.get(label) ?? []), t]);
  }
  const rows: WorldSeedRow[] = [];
  for (const [label, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const byAttempt = new Map<number, AnalysisTrial[]>();
    for (const t of list) byAttempt.set(t.attempt, [...(byAttempt.get(t.attempt) ?? []), t]);
    const attempts = [...byAttempt]
      .sort(([a], [b]) => a - b)
      .map(([attempt, ts]) => {
        const successes = ts.filter((t) => t.world?.success === true).length;
        return {
          attempt,
          tasks: ts.length,
          successes,
          sr: successes / ts.length,
          psr: ts.reduce((s, t) => s + (t.reward ?? 0), 0) / ts.length,
        };
      });
    rows.push({
      label,
      attempts,
      srSpread: spread(attempts.map((a) => a.sr)),
      psrSpread: spread(attempts.map((a) => a.psr)),
    });
  }
  return rows;
}

function spread(xs: number[]): { range: number; sd: number | null } {
  const range = xs.length > 0 ? Math.max(...xs) - Math.min(...xs) : 0;
  if (xs.length < 2) return { range, sd: null };
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return { range, sd: Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1)) };
}
