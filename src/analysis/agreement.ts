/**
 * Two raters' in/out labels of the same n items as a 2×2 table: `both` in by both, `onlyA` in by
 * A alone, `onlyB` in by B alone, `neither` out by both.
 */
export interface AgreementTable {
  both: number;
  onlyA: number;
  onlyB: number;
  neither: number;
}

/** How far two raters' binary labels agree: the table, raw agreement and Cohen's κ. */
export interface BinaryAgreement {
  /** Items labelled (the table's sum). */
  n: number;
  table: AgreementTable;
  /** Observed agreement pₒ = (both + neither) / n; null when n = 0. */
  raw: number | null;
  /** Agreement expected by chance from the two raters' marginals, pₑ; null when n = 0. */
  expected: number | null;
  /** Cohen's κ = (pₒ − pₑ) / (1 − pₑ); 1 when pₑ = 1 (see cohenKappa); null when n = 0. */
  kappa: number | null;
}

/**
 * Cohen's κ of a 2×2 table. When pₑ = 1 both raters put every item in one and the same class, so
 * they agree on every item (pₒ = 1) and the ratio is 0/0: κ is then 1, perfect agreement, rather
 * than undefined (a run where neither the tracer nor the judge credits any call agrees fully).
 * An empty table has no κ (null).
 */
export function cohenKappa(t: AgreementTable): number | null {
  const n = t.both + t.onlyA + t.onlyB + t.neither;
  if (n === 0) return null;
  const po = (t.both + t.neither) / n;
  const pe = expectedAgreement(t, n);
  return pe === 1 ? 1 : (po - pe) / (1 - pe);
}

function expectedAgreement(t: AgreementTable, n: number): number {
  const aIn = (t.both + t.onlyA) / n;
  const bIn = (t.both + t.onlyB) / n;
  return aIn * bIn + (1 - aIn) * (1 - bIn);
}

/**
 * Agreement of two sets of labelled-in items out of the items 0…n−1 (every other item is out for
 * both). Items outside 0…n−1 are a caller's error: they are refused, not silently counted.
 */
export function binaryAgreement(n: number, a: Iterable<number>, b: Iterable<number>): BinaryAgreement {
  const inA = new Set(a);
  const inB = new Set(b);
  for (const i of [...inA, ...inB])
    if (!Number.isInteger(i) || i < 0 || i >= n) throw new RangeError(`item ${i} is not one of 0…${n - 1}`);
  let both = 0;
  for (const i of inA) if (inB.has(i)) both++;
  const table = {
    both,
    onlyA: inA.size - both,
    onlyB: inB.size - both,
    neither: n - inA.size - inB.size + both,
  };
  if (n === 0) return { n, table, raw: null, expected: null, kappa: null };
  return {
    n,
    table,
    raw: (both + table.neither) / n,
    expected: expectedAgreement(table, n),
    kappa: cohenKappa(table),
  };
}
