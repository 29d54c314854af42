import type { Estimate, Rate } from "../analysis/stats.js";

export const DASH = "–";

export function pct(p: number | null, digits = 1): string {
  return p === null ? DASH : `${(p * 100).toFixed(digits)}%`;
}

/** `k/n (p%)`: every rate shows what it was computed from. */
export function rate(r: Rate | null): string {
  if (r === null || r.n === 0) return r === null ? DASH : `0/0 (${DASH})`;
  return `${r.k}/${r.n} (${pct(r.p)})`;
}

/** `k/n (p%) [lo–hi]` with the Wilson interval in percent. */
export function rateWithInterval(r: Rate | null): string {
  if (r === null || r.p === null || r.lo === null || r.hi === null) return rate(r);
  return `${rate(r)} [${(r.lo * 100).toFixed(1)}–${(r.hi * 100).toFixed(1)}]`;
}

export function num(x: number | null, digits = 3): string {
  return x === null ? DASH : x.toFixed(digits);
}

/** `0.512 [0.480, 0.545]`, or the bare mean when there is no interval. */
export function estimate(e: Estimate): string {
  if (e.value === null) return DASH;
  if (e.lo === null || e.hi === null) return e.value.toFixed(3);
  return `${e.value.toFixed(3)} [${e.lo.toFixed(3)}, ${e.hi.toFixed(3)}]`;
}

export function usd(x: number | null): string {
  if (x === null) return DASH;
  return x >= 100 ? `$${x.toFixed(0)}` : `$${x.toFixed(2)}`;
}

/** 1234567 → 1.23M: token counts are read for size, not digits. */
export function compact(x: number | null): string {
  if (x === null) return DASH;
  if (x >= 1e9) return `${(x / 1e9).toFixed(2)}G`;
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)}M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)}k`;
  return x.toFixed(0);
}

/** How formatTable lays out a table. */
export interface TableLayout {
  /** "numeric": first column left, the others right-aligned (numbers); "left": every column left. */
  align?: "numeric" | "left";
  /** A dashed rule under the header (default true). */
  rule?: boolean;
}

/**
 * The one plain-text table of longhaul (reports, run results, model lists): columns two spaces
 * apart, widths measured in code points, trailing spaces trimmed.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  layout: TableLayout = {},
): string {
  // A label with a line break (a task category, an imported agent name) must not split its row.
  const flat = (r: readonly string[]) => r.map((c) => c.replace(/[\r\n\t]+/g, " "));
  const all = [header, ...rows].map(flat);
  const widths = header.map((_, c) => Math.max(...all.map((r) => [...(r[c] ?? "")].length)));
  const right = layout.align !== "left";
  const line = (r: readonly string[]) =>
    header
      .map((_, c) => {
        const cell = r[c] ?? "";
        const pad = " ".repeat((widths[c] ?? 0) - [...cell].length);
        return c === 0 || !right ? cell + pad : pad + cell;
      })
      .join("  ")
      .trimEnd();
  const [head = [], ...body] = all.map(line);
  if (layout.rule === false) return [head, ...body].join("\n");
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [head, rule, ...body].join("\n");
}

/** Left-aligned first column, right-aligned numbers: the report's tables. */
export function alignTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return formatTable(header, rows, { align: "numeric" });
}

/** A cost cell: "unknown" when a counted trial's model had no price, never a made-up $0.00. */
export function costCell(x: number | null, unknownTrials: number): string {
  return unknownTrials > 0 ? "unknown" : usd(x);
}

/** Seconds as `12.3 min` (budgets are tens of minutes) or `45 s`. */
export function duration(sec: number | null): string {
  if (sec === null) return DASH;
  return sec >= 60 ? `${(sec / 60).toFixed(1)} min` : `${sec.toFixed(0)} s`;
}

/** `0.74 [0.41, 0.90]`, the interval left out when there is none. */
export function withInterval(i: { value: number | null; lo: number | null; hi: number | null }): string {
  if (i.value === null) return DASH;
  if (i.lo === null || i.hi === null) return i.value.toFixed(2);
  return `${i.value.toFixed(2)} [${i.lo.toFixed(2)}, ${i.hi.toFixed(2)}]`;
}

/** One line: ρ and τ-b with bootstrap and analytic intervals, and what they rest on. */
export function agreementText(a: {
  n: number;
  spearman: { value: number | null; lo: number | null; hi: number | null };
  kendall: { value: number | null; lo: number | null; hi: number | null };
  analytic: {
    spearman: { value: number | null; lo: number | null; hi: number | null };
    kendall: { value: number | null; lo: number | null; hi: number | null };
  };
  seed: number;
  samples: number;
  usedSamples: number;
}): string {
  const boot =
    a.samples > 0
      ? `bootstrap 95%, ${a.usedSamples}/${a.samples} usable resamples, seed ${a.seed}`
      : "no bootstrap";
  return (
    `ρ = ${withInterval(a.spearman)}, τ-b = ${withInterval(a.kendall)} (${boot}; ` +
    `analytic ρ ${withInterval(a.analytic.spearman)}, τ-b ${withInterval(a.analytic.kendall)}; n = ${a.n})`
  );
}

/** A reason shown in one table cell: one line, cut to a readable length. */
export function reasonCell(reason: string | null, max = 120): string {
  if (reason === null) return DASH;
  const one = reason.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
