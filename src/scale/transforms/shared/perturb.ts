import type { Rng } from "../../../core/rng.js";
import { cellText, type Table } from "./table.js";

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** A nearby number with the same count of decimals ("12.50" -> "13.10"). */
function nudgeNumberText(s: string, rng: Rng): string {
  const decimals = s.includes(".") ? (s.split(".")[1]?.length ?? 0) : 0;
  const unit = 10 ** -decimals;
  const base = Number(s);
  const steps = rng.int(1, 9) * (rng.int(0, 1) === 0 ? -1 : 1);
  let next = base + steps * unit * (decimals === 0 ? 1 : rng.int(1, 10));
  if (base >= 0 && next < 0) next = base + Math.abs(steps) * unit;
  return next.toFixed(decimals);
}

/** A plausible different value for one cell: a nudged number or another value seen in the column. */
export function perturbCell(t: Table, col: number, current: unknown, rng: Rng): unknown {
  const here = cellText(t, current);
  const others = t.rows.map((r) => r[col]).filter((v) => cellText(t, v) !== here);
  if (typeof current === "number" && Number.isFinite(current)) {
    const text = JSON.stringify(current);
    if (NUMERIC.test(text)) return Number(nudgeNumberText(text, rng));
  }
  if (typeof current === "string" && NUMERIC.test(current)) {
    const n = nudgeNumberText(current, rng);
    if (n !== current) return n;
  }
  if (typeof current === "boolean") return !current;
  if (others.length > 0) return rng.pick(others);
  return current;
}

/** A copy of `row` with one or two cells changed plausibly, or undefined when no cell would change. */
export function perturbRow(
  t: Table,
  row: readonly unknown[],
  rng: Rng,
  avoid: readonly number[] = [],
): unknown[] | undefined {
  const cols = rng.shuffle(t.header.map((_, j) => j).filter((j) => !avoid.includes(j)));
  const out = [...row];
  let changed = 0;
  const want = rng.int(1, 2);
  for (const j of cols) {
    const next = perturbCell(t, j, out[j], rng);
    if (cellText(t, next) !== cellText(t, out[j])) {
      out[j] = next;
      changed++;
      if (changed >= want) break;
    }
  }
  return changed === 0 ? undefined : out;
}
