import type { AnalysisTrial } from "./summary-types.js";

/** A ratio with its whole-number parts, so every printed rate shows its denominator. */
export interface Fraction {
  num: number;
  den: number;
  /** num / den; null when den is 0. */
  value: number | null;
}

/** One world trial's causal contribution. */
export interface WorldCceTrialRow {
  label: string;
  task: string;
  attempt: number;
  success: boolean;
  /** Closure calls / all calls (waits included), and with waits left out. */
  cce: Fraction;
  cceActive: Fraction;
  agents: { id: string; pac: Fraction; share: Fraction }[];
  /** Counterfactual check: necessary closure calls / sampled, breaking outside calls / sampled. */
  necessity: Fraction | null;
  outsideBreaks: Fraction | null;
}

/** Causal contribution aggregated over one agent × model's world trials. */
export interface WorldCceGroupRow {
  label: string;
  /** Traced trials, and how many succeeded. */
  tasks: number;
  successes: number;
  /** Mean per-trial CCE with failed trials counted as 0 (sum of CCEs over trials). */
  macro: { sum: number; n: number; value: number | null };
  /** Mean per-trial CCE over successful trials only. */
  successConditional: { sum: number; n: number; value: number | null };
  /** Σ closure calls / Σ calls over every traced trial (a failed trial adds calls, no closure). */
  pooled: Fraction;
  /** PAC over (trial, agent) pairs of successful trials: how many, min, median, max, and how many were 0. */
  pac: { n: number; min: number | null; median: number | null; max: number | null; zero: number };
  necessity: Fraction;
  outsideBreaks: Fraction;
}

export interface WorldCceSummary {
  groups: WorldCceGroupRow[];
  trials: WorldCceTrialRow[];
}

function frac(num: number, den: number): Fraction {
  return { num, den, value: den === 0 ? null : num / den };
}

/**
 * CCE and PAC of world trials that were traced (result.json `world.cce`); null when none was.
 * Infrastructure failures are left out, as everywhere. docs/world.md defines each figure.
 */
export function worldCceSummary(trials: readonly AnalysisTrial[]): WorldCceSummary | null {
  const traced = trials.filter((t) => t.world?.cce !== undefined && t.outcome !== "infra_error");
  if (traced.length === 0) return null;
  // As in the SR/PSR table: trials under different modifiers are different conditions, never pooled.
  const labelOf = (t: AnalysisTrial): string => {
    const team = t.model === null ? t.agent : `${t.agent} / ${t.model}`;
    const mods = t.world?.modifiers ?? [];
    return mods.length === 0 ? team : `${team} [${mods.join(", ")}]`;
  };
  const rows: WorldCceTrialRow[] = traced.map((t) => {
    const c = t.world?.cce;
    if (c === undefined) throw new Error("unreachable: filtered above");
    const cf = c.counterfactual;
    return {
      label: labelOf(t),
      task: t.task.name,
      attempt: t.attempt,
      success: t.world?.success === true,
      cce: frac(c.contributing, c.actions),
      cceActive: frac(c.contributing, c.actions - c.waits),
      agents: c.agents.map((a) => ({
        id: a.id,
        pac: frac(a.contributing, a.actions),
        share: frac(a.actions, c.actions),
      })),
      necessity: cf === null ? null : frac(cf.inside.necessary, cf.inside.sampled),
      outsideBreaks: cf === null ? null : frac(cf.outside.breaking, cf.outside.sampled),
    };
  });
  rows.sort((a, b) => cmp(a.label, b.label) || cmp(a.task, b.task) || a.attempt - b.attempt);
  const labels = [...new Set(rows.map((r) => r.label))];
  const groups = labels.map((label) =>
    groupRow(
      label,
      rows.filter((r) => r.label === label),
    ),
  );
  return { groups, trials: rows };
}

function groupRow(label: string, rows: readonly WorldCceTrialRow[]): WorldCceGroupRow {
  const won = rows.filter((r) => r.success);
  // A failed trial's closure is empty, so its CCE is already 0: the macro mean counts it as 0.
  const macroSum = rows.reduce((s, r) => s + (r.success ? (r.cce.value ?? 0) : 0), 0);
  const condSum = won.reduce((s, r) => s + (r.cce.value ?? 0), 0);
  const pacs = won
    .flatMap((r) => r.agents.map((a) => a.pac.value))
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const sum = (f: (r: WorldCceTrialRow) => Fraction | null): Fraction =>
    rows.reduce(
      (acc, r) => {
        const x = f(r);
        return x === null ? acc : frac(acc.num + x.num, acc.den + x.den);
      },
      frac(0, 0),
    );
  return {
    label,
    tasks: rows.length,
    successes: won.length,
    macro: { sum: macroSum, n: rows.length, value: rows.length === 0 ? null : macroSum / rows.length },
    successConditional: {
      sum: condSum,
      n: won.length,
      value: won.length === 0 ? null : condSum / won.length,
    },
    pooled: frac(
      rows.reduce((s, r) => s + (r.success ? r.cce.num : 0), 0),
      rows.reduce((s, r) => s + r.cce.den, 0),
    ),
    pac: {
      n: pacs.length,
      min: pacs[0] ?? null,
      median: median(pacs),
      max: pacs[pacs.length - 1] ?? null,
      zero: pacs.filter((v) => v === 0).length,
    },
    necessity: sum((r) => r.necessity),
    outsideBreaks: sum((r) => r.outsideBreaks),
  };
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 === 1 ? (xs[mid] ?? null) : ((xs[mid - 1] ?? 0) + (xs[mid] ?? 0)) / 2;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
