/**
 * A published rate as printed: its value in the printed unit (percent or fraction) and the
 * number of decimals the table prints, so a count can be checked against what a reader sees.
 */
export interface PrintedRate {
  value: number;
  decimals: number;
  unit: "pct" | "fraction";
}

/** What a printed rate says about whole counts out of n. */
export interface RecoveredCount {
  printed: PrintedRate;
  n: number;
  /** round(p·n), the count reported as k/n. */
  k: number;
  /** Every k in 0…n whose k/n prints as the published value; empty when none does. */
  candidates: number[];
  /** True when k/n, printed at the table's precision, gives back the published value. */
  reproduces: boolean;
}

export interface RecoveredRow {
  label: string;
  n: number;
  pass095: RecoveredCount | null;
  pass100: RecoveredCount | null;
}

/** Float slack so 2/46 = 4.3478… and a printed 4.35 are not split by binary rounding. */
const EPS = 1e-9;

/**
 * The whole counts k over n that a printed rate can come from: those with k/n within half a unit
 * of the last printed digit of the value (round-half-either-way, since tables differ).
 */
export function recoverCount(printed: PrintedRate, n: number): RecoveredCount {
  const scale = printed.unit === "pct" ? 100 : 1;
  const half = 0.5 * 10 ** -printed.decimals;
  const lo = Math.max(0, Math.ceil(((printed.value - half) * n) / scale - EPS));
  const hi = Math.min(n, Math.floor(((printed.value + half) * n) / scale + EPS));
  const candidates: number[] = [];
  for (let k = lo; k <= hi; k++) {
    if (Math.abs((scale * k) / n - printed.value) <= half + EPS) candidates.push(k);
  }
  const k = Math.max(0, Math.min(n, Math.round((printed.value * n) / scale)));
  return { printed, n, k, candidates, reproduces: candidates.includes(k) };
}

/** Decimals of a number as written: "28.30" → 2, 28.3 → 1, "4" → 0. */
export function decimalsOf(text: string): number {
  const s = text.trim().replace(/%$/, "");
  const m = /\.(\d+)(?:[eE].*)?$/.exec(s);
  return m?.[1]?.length ?? 0;
}
