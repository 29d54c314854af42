import type { TrialResult } from "../core/index.js";
import { type Mutant, readMutants } from "../task/mutants.js";
import type { Task } from "../task/types.js";
import type { CheckItem } from "./check-task.js";
import { type CheckTrial, type CheckTrialOptions, withCheckTrials } from "./check-trials.js";

/** A mutant must score below this on every seed: hidden cases must catch a plausibly wrong solution. */
export const MUTANT_MAX_REWARD = 0.95;

/**
 * Which mutant runs may stop grading once R < 0.95 is certain (lh.py's LONGHAUL_STOP_BELOW): none
 * (every subtask graded on every seed), every seed after the first (the default of `task check`: the
 * first seed's full grading says which subtasks catch the mutant, the others only need to show
 * R < 0.95, which costs a fraction of the hidden cases), or all (the suite's sample).
 */
export const MUTANT_STOPS = ["never", "after-first", "always"] as const;
export type MutantStop = (typeof MUTANT_STOPS)[number];

/** One mutant's runs in a check: its rewards per seed and the subtasks that caught it. */
export interface MutantResult {
  name: string;
  /** What the mutant gets wrong (its script's first comment line). */
  wrong: string;
  /** R < 0.95 on every seed it ran. */
  ok: boolean;
  seeds: number[];
  rewards: (number | null)[];
  /**
   * Per seed: the verifier stopped once R < 0.95 was certain, so the subtasks after that point
   * scored 0 unrun and the reward is not the mutant's full R (only that it is below 0.95).
   */
  stopped: boolean[];
  /** Subtasks scoring below 1 on some seed, in rubric order: the ones that caught it. */
  caughtBy: string[];
  /** Every public subtask scored 1 on every seed: only hidden cases tell it from the oracle. */
  passesPublic: boolean;
  /**
   * The mutant's own script failed on some seed (a patch that no longer applies, a file it cannot
   * write): what it left is not the mutant, so its reward proves nothing and the check fails.
   */
  scriptError: string | null;
}

/** Runs every mutant on every seed, one trial at a time. */
export async function runMutants(
  task: Task,
  mutants: readonly Mutant[],
  trial: CheckTrial,
  seeds: readonly number[],
  stop: MutantStop = "after-first",
): Promise<MutantResult[]> {
  const results: MutantResult[] = [];
  for (const m of mutants) {
    const runs: TrialResult[] = [];
    for (const [i, seed] of seeds.entries()) {
      const early = stop === "always" || (stop === "after-first" && i > 0);
      runs.push(
        await trial("mutant", seed, {
          agentOptions: { name: m.name },
          ...(early ? { stopBelow: MUTANT_MAX_REWARD } : {}),
        }),
      );
    }
    results.push(judgeMutant(task, m, runs));
  }
  return results;
}

/** A mutant's verdict from its trials (exported for tests of the report). */
export function judgeMutant(task: Task, m: Mutant, runs: readonly TrialResult[]): MutantResult {
  // A subtask that was not run (the verifier stopped early) caught nothing.
  const caught = new Set(
    runs.flatMap((r) => r.subtasks.filter((s) => s.score < 1 && !isNotRun(s.message)).map((s) => s.id)),
  );
  const publicIds = task.rubric.subtasks.filter((s) => s.visibility === "public").map((s) => s.id);
  const passesPublic = runs.every((r) =>
    publicIds.every((id) => (r.subtasks.find((s) => s.id === id)?.score ?? 0) >= 1),
  );
  const scriptError = runs.find((r) => r.outcome === "agent_error")?.error?.message ?? null;
  return {
    name: m.name,
    wrong: m.wrong,
    ok: scriptError === null && runs.every((r) => r.reward !== null && r.reward < MUTANT_MAX_REWARD),
    seeds: runs.map((r) => r.seed),
    rewards: runs.map((r) => r.reward),
    stopped: runs.map((r) => r.subtasks.some((s) => isStoppedEarly(s.message))),
    caughtBy: task.rubric.subtasks.map((s) => s.id).filter((id) => caught.has(id)),
    passesPublic,
    scriptError,
  };
}

function isNotRun(message: string | null | undefined): boolean {
  return message?.startsWith("not run") === true;
}

/** lh.py's note on a subtask it skipped under LONGHAUL_STOP_BELOW. */
function isStoppedEarly(message: string | null | undefined): boolean {
  return isNotRun(message) && message?.includes("LONGHAUL_STOP_BELOW") === true;
}

/**
 * The checks over a task's mutants: every NAME.sh a script (`broken` names those that are not),
 * at least `min` of them (when min > 0), and each below R = 0.95 on every seed it ran. No
 * mutants, none broken and no minimum: no checks.
 */
export function mutantChecks(
  results: readonly MutantResult[],
  min: number,
  quick: boolean,
  broken: readonly string[] = [],
): CheckItem[] {
  const checks: CheckItem[] = [];
  if (broken.length > 0) {
    checks.push({ name: "solution/mutants/*.sh are scripts", ok: false, detail: broken.join("; ") });
  }
  if (min > 0) {
    checks.push({
      name: `at least ${min} mutants in solution/mutants/`,
      ok: results.length >= min,
      detail: `${results.length}${results.length > 0 ? `: ${results.map((r) => r.name).join(", ")}` : ""}`,
    });
  }
  if (results.length === 0) return checks;
  const bad = results.filter((r) => !r.ok);
  checks.push({
    name: `every mutant R < ${MUTANT_MAX_REWARD} ${quick ? "on the first seed" : "on every seed"}`,
    ok: bad.length === 0,
    detail:
      bad.length === 0
        ? `${results.length} mutants caught`
        : bad
            .map((r) =>
              r.scriptError !== null
                ? `${r.name}: its script failed (${r.scriptError})`
                : `${r.name} not caught: ${describeMutant(r)}`,
            )
            .join("; "),
  });
  return checks;
}

/** One line per mutant: R per seed, the subtasks that caught it, whether it passes the public ones, what it gets wrong. */
export function describeMutant(r: MutantResult): string {
  // A run that stopped early proved R < 0.95 without the rest of its score.
  const rewards = r.rewards
    .map((x, i) => (x === null ? "null" : r.stopped[i] === true ? `<${MUTANT_MAX_REWARD}` : x.toFixed(3)))
    .join(" ");
  const by = r.caughtBy.length > 0 ? r.caughtBy.join(", ") : "nothing";
  return `R=${rewards}, caught by ${by}${r.passesPublic ? " (passes the public subtasks)" : ""}${r.wrong ? ` — ${r.wrong}` : ""}`;
}

/** Mutant-only check options: which mutants (default all), and whether the verifier may stop early. */
export interface MutantCheckOptions extends CheckTrialOptions {
  seeds: number[];
  names?: string[];
  /** Which runs may stop grading once R < 0.95 is certain (default: every seed after the first). */
  stop?: MutantStop;
  minMutants?: number;
}

/** The mutant part of `task check` alone (`task check --mutants-only`, the suite's fixed sample). */
export async function checkMutants(
  task: Task,
  o: MutantCheckOptions,
): Promise<{ task: string; ok: boolean; checks: CheckItem[]; mutants: MutantResult[] }> {
  const { mutants: all, broken } = readMutants(task.paths.solution);
  const unknown = (o.names ?? []).filter((n) => !all.some((m) => m.name === n));
  if (unknown.length > 0) {
    const detail = `no solution/mutants/${unknown.join(".sh, ")}.sh`;
    return {
      task: task.name,
      ok: false,
      checks: [{ name: "mutants exist", ok: false, detail }],
      mutants: [],
    };
  }
  const chosen = o.names === undefined ? all : all.filter((m) => o.names?.includes(m.name));
  const run = await withCheckTrials(task, o, (trial) => runMutants(task, chosen, trial, o.seeds, o.stop));
  if (!run.ok) {
    return {
      task: task.name,
      ok: false,
      checks: [{ name: "image builds", ok: false, detail: run.error }],
      mutants: [],
    };
  }
  const checks = mutantChecks(
    run.value,
    o.names === undefined ? (o.minMutants ?? 0) : 0,
    o.seeds.length === 1,
    o.names === undefined ? broken : [],
  );
  return { task: task.name, ok: checks.every((c) => c.ok), checks, mutants: run.value };
}
