import type { AnalysisTrial } from "./summary-types.js";

/** SR or PSR over seeds: mean, min, max and the sample standard deviation (null with one seed). */
export interface SeedStat {
  mean: number;
  min: number;
  max: number;
  sd: number | null;
}

/** One task (or all of them) across seeds. */
export interface RepeatabilityRow {
  /** The task's name, or "all" for the mean over tasks. */
  task: string;
  /** Per seed column (same order as the table's `seeds`); null where that seed has no scored trial. */
  perSeed: Array<{ sr: number; psr: number; trials: number } | null>;
  sr: SeedStat | null;
  psr: SeedStat | null;
}

export interface RepeatabilityTable {
  /** One column per attempt, labelled by its seed (the trial seed when the attempt's trials share one). */
  seeds: Array<{ attempt: number; seed: number | null }>;
  rows: RepeatabilityRow[];
}

/**
 * The repeatability table of world trials: per task and over all tasks, SR (success) and PSR
 * (R) for each seed, then their mean and spread across seeds. A column is an attempt (one seed
 * each); per task a cell averages that attempt's trials of the task (one, for a single team), the
 * "all" row averages the tasks' cells of the seed. Infrastructure failures are left out.
 */
export function worldRepeatability(trials: readonly AnalysisTrial[]): RepeatabilityTable {
  const scored = trials.filter((t) => t.world && t.outcome !== "infra_error");
  const attempts = [...new Set(scored.map((t) => t.attempt))].sort((a, b) => a - b);
  const seeds = attempts.map((attempt) => {
    const own = new Set(scored.filter((t) => t.attempt === attempt).map((t) => t.seed));
    const only = own.size === 1 ? [...own][0] : undefined;
    return { attempt, seed: only ?? null };
  });
  const tasks = [...new Set(scored.map((t) => t.task.name))].sort();
  const rows: RepeatabilityRow[] = tasks.map((task) => {
    const perSeed = attempts.map((attempt) =>
      cell(scored.filter((t) => t.task.name === task && t.attempt === attempt)),
    );
    return { task, perSeed, ...stats(perSeed) };
  });
  const all = attempts.map((_, i) => {
    const cells = rows.map((r) => r.perSeed[i]).filter((c) => c !== null && c !== undefined);
    if (cells.length === 0) return null;
    return {
      sr: mean(cells.map((c) => c.sr)),
      psr: mean(cells.map((c) => c.psr)),
      trials: cells.reduce((s, c) => s + c.trials, 0),
    };
  });
  if (tasks.length > 0) rows.push({ task: "all", perSeed: all, ...stats(all) });
  return { seeds, rows };
}

function cell(ts: readonly AnalysisTrial[]): { sr: number; psr: number; trials: number } | null {
  if (ts.length === 0) return null;
  return {
    sr: mean(ts.map((t) => (t.world?.success === true ? 1 : 0))),
    psr: mean(ts.map((t) => t.reward ?? 0)),
    trials: ts.length,
  };
}

function stats(
  cells: ReadonlyArray<{ sr: number; psr: number } | null>,
): Pick<RepeatabilityRow, "sr" | "psr"> {
  const present = cells.filter((c) => c !== null);
  return { sr: seedStat(present.map((c) => c.sr)), psr: seedStat(present.map((c) => c.psr)) };
}

export function seedStat(xs: readonly number[]): SeedStat | null {
  if (xs.length === 0) return null;
  const m = mean(xs);
  const sd = xs.length < 2 ? null : Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
  return { mean: m, min: Math.min(...xs), max: Math.max(...xs), sd };
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}
