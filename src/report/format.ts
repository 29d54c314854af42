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

/** Left-aligned first column, right-aligned numbers; widths measured in code points. */
export function alignTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => [...(r[c] ?? "")].length)));
  const line = (r: readonly string[]) =>
    r
      .map((cell, c) => {
        const pad = " ".repeat((widths[c] ?? 0) - [...cell].length);
        return c === 0 ? cell + pad : pad + cell;
      })
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}
