import { cmp } from "./order.js";
import type { AnalysisTrial } from "./summary-types.js";

/** One (task, attempt) whose trials were graded on different hidden inputs. */
export interface HiddenCaseMismatch {
  task: string;
  attempt: number;
  /** Distinct seeds seen, per side (one side inside a single job). */
  seedsA: number[];
  seedsB: number[];
  digestsA: string[];
  digestsB: string[];
  /** "seed": the seeds differ; "digest": same or unknown seeds, but recorded digests differ. */
  reason: "seed" | "digest";
}

interface Cases {
  seeds: Set<number>;
  digests: Set<string>;
}

function casesBy(trials: readonly AnalysisTrial[], keyOf: (t: AnalysisTrial) => string): Map<string, Cases> {
  const out = new Map<string, Cases>();
  for (const t of trials) {
    const key = keyOf(t);
    let c = out.get(key);
    if (c === undefined) {
      c = { seeds: new Set(), digests: new Set() };
      out.set(key, c);
    }
    if (t.seed !== undefined) c.seeds.add(t.seed);
    if (t.stress_digest !== undefined && t.stress_digest !== null) c.digests.add(t.stress_digest);
  }
  return out;
}

const caseKey = (t: AnalysisTrial) => `${t.task.name}\u0000${t.attempt}`;
const sorted = <T extends number | string>(s: Set<T>): T[] =>
  [...s].sort((a, b) => (typeof a === "number" ? a - (b as number) : cmp(String(a), String(b))));

function split(key: string): { task: string; attempt: number } {
  const i = key.lastIndexOf("\u0000");
  return { task: key.slice(0, i), attempt: Number(key.slice(i + 1)) };
}

/**
 * Checks that two jobs graded each shared (task, attempt) on the same hidden cases: the same
 * stress seed, and the same stress digest where both recorded one. A comparison across different
 * hidden cases measures the cases as much as the agents.
 */
export function hiddenCaseMismatches(
  a: readonly AnalysisTrial[],
  b: readonly AnalysisTrial[],
): HiddenCaseMismatch[] {
  const ca = casesBy(a, caseKey);
  const cb = casesBy(b, caseKey);
  const out: HiddenCaseMismatch[] = [];
  for (const [key, x] of ca) {
    const y = cb.get(key);
    if (y === undefined) continue;
    const seedDiffers = x.seeds.size > 0 && y.seeds.size > 0 && !sameSet(x.seeds, y.seeds);
    const digestDiffers = x.digests.size > 0 && y.digests.size > 0 && !sameSet(x.digests, y.digests);
    if (!seedDiffers && !digestDiffers) continue;
    out.push({
      ...split(key),
      seedsA: sorted(x.seeds),
      seedsB: sorted(y.seeds),
      digestsA: sorted(x.digests),
      digestsB: sorted(y.digests),
      reason: seedDiffers ? "seed" : "digest",
    });
  }
  return out.sort((p, q) => cmp(p.task, q.task) || p.attempt - q.attempt);
}

/**
 * Inside one job every agent on a (task, attempt) gets the same hidden seed, so they should see
 * the same hidden inputs; a (task, attempt) with more than one recorded digest means they did not.
 * Trials from different jobs are kept apart (jobs may use different seeds on purpose).
 */
export function digestConflictsWithinJobs(trials: readonly AnalysisTrial[]): HiddenCaseMismatch[] {
  const cases = casesBy(trials, (t) => `${t.job_id ?? ""}\u0001${caseKey(t)}`);
  const out: HiddenCaseMismatch[] = [];
  for (const [key, c] of cases) {
    if (c.digests.size < 2) continue;
    const rest = key.slice(key.indexOf("\u0001") + 1);
    out.push({
      ...split(rest),
      seedsA: sorted(c.seeds),
      seedsB: [],
      digestsA: sorted(c.digests),
      digestsB: [],
      reason: "digest",
    });
  }
  return out.sort((p, q) => cmp(p.task, q.task) || p.attempt - q.attempt);
}

function sameSet<T>(x: Set<T>, y: Set<T>): boolean {
  if (x.size !== y.size) return false;
  for (const v of x) if (!y.has(v)) return false;
  return true;
}

/** "t1 (attempt 0: seed 5 vs 9), t2 (attempt 1: digest differs)", cut after `max` items. */
export function describeMismatches(ms: readonly HiddenCaseMismatch[], max = 8): string {
  const items = ms.slice(0, max).map((m) => {
    const what =
      m.reason === "seed"
        ? `seed ${m.seedsA.join("/")} vs ${m.seedsB.join("/")}`
        : m.digestsB.length > 0
          ? "stress digest differs"
          : `${m.digestsA.length} different stress digests`;
    return `${m.task} (attempt ${m.attempt}: ${what})`;
  });
  const more = ms.length > max ? `, and ${ms.length - max} more` : "";
  return `${items.join(", ")}${more}`;
}
