import { existsSync } from "node:fs";
import { join } from "node:path";
import type { TrialResult } from "../core/index.js";
import type { SandboxProvider } from "../sandbox/types.js";
import { readMutants } from "../task/mutants.js";
import type { Task } from "../task/types.js";
import { kitCheck } from "./check-kit.js";
import { type MutantResult, type MutantStop, mutantChecks, runMutants } from "./check-mutants.js";
import { sharedCodeCheck } from "./check-shared-code.js";
import { type CheckTrial, withCheckTrials } from "./check-trials.js";

export interface CheckItem {
  name: string;
  ok: boolean;
  detail: string;
}

/** checkTask's verdict: each check with its detail, the rewards seen per agent, and each mutant's runs. */
export interface TaskCheckResult {
  task: string;
  ok: boolean;
  checks: CheckItem[];
  rewards: { oracle: (number | null)[]; nop: (number | null)[]; partial: (number | null)[] };
  /** One entry per solution/mutants/NAME.sh that ran: its rewards and the subtasks that caught it. */
  mutants: MutantResult[];
}

/** How checkTask runs: the sandbox provider, the stress seeds to try, and an optional abort signal. */
export interface CheckOptions {
  provider: SandboxProvider;
  seeds: number[];
  signal?: AbortSignal;
  timeoutMultiplier?: number;
  /**
   * A cheaper check while authoring: the oracle and nop on the first seed, the partial on the
   * last seed and re-run there for determinism (without a partial: the oracle on every seed and
   * re-run on the first), each mutant on the first seed; different seeds must still give
   * different stress inputs.
   */
  quick?: boolean;
  /** Run the task's mutants (default true); the suite's dataset check leaves them to a sample. */
  mutants?: boolean;
  /** Run nop (default true). The suite checks nop and determinism on a fixed sample of tasks. */
  nop?: boolean;
  /** Re-run for the verifier's determinism (default true). */
  rerun?: boolean;
  /** Fewer mutants than this fails the check (default 0: a task may ship none). */
  minMutants?: number;
  /** Which mutant runs may stop grading once R < 0.95 is certain (default: every seed after the first). */
  mutantStop?: MutantStop;
}

/** The most a task's public subtasks may weigh: most reward must come from hidden checks. */
export const MAX_PUBLIC_WEIGHT = 0.2;

/**
 * Checks that a task is sound: the oracle reaches R = 1.0 on every seed, nop stays ≤ 0.05, the
 * partial solution (when shipped) lands strictly between 0.2 and 0.8, every mutant stays below
 * R = 0.95, the verifier gives the same scores and stress digest when oracle, nop and partial each
 * run their first seed again, public subtasks weigh at most 20%, and no file under tests/ shares a
 * block of code with solution/ (check-shared-code.ts), and tests/lh.py, when present, is the current
 * verifier kit (check-kit.ts).
 */
export async function checkTask(task: Task, o: CheckOptions): Promise<TaskCheckResult> {
  const rewards: TaskCheckResult["rewards"] = { oracle: [], nop: [], partial: [] };
  // Reads files only: reported even when no trial can run.
  const shared = sharedCodeCheck(task);
  const kit = kitCheck(task);
  if (!existsSync(join(task.paths.solution, "solve.sh"))) {
    const detail = `${join(task.paths.solution, "solve.sh")} is missing: the oracle has nothing to run`;
    return {
      task: task.name,
      ok: false,
      checks: [{ name: "solution/solve.sh exists", ok: false, detail }, shared, kit],
      rewards,
      mutants: [],
    };
  }
  const mutants: MutantResult[] = [];
  const run = await withCheckTrials(task, o, (trial) => runChecks(task, o, trial, rewards, mutants));
  if (!run.ok) {
    return {
      task: task.name,
      ok: false,
      checks: [{ name: "image builds", ok: false, detail: run.error }, shared, kit],
      rewards,
      mutants,
    };
  }
  const checks = [...run.value, shared, kit];
  return { task: task.name, ok: checks.every((c) => c.ok), checks, rewards, mutants };
}

async function runChecks(
  task: Task,
  o: CheckOptions,
  trial: CheckTrial,
  rewards: TaskCheckResult["rewards"],
  mutants: MutantResult[],
): Promise<CheckItem[]> {
  const checks: CheckItem[] = [];
  const hasPartial = existsSync(join(task.paths.solution, "partial.sh"));
  const firstSeed = o.seeds[0] ?? 1;
  const lastSeed = o.seeds[o.seeds.length - 1] ?? firstSeed;
  // Quick: every run that must pass or fail is made once, and the partial's run on the last
  // seed both checks its range and, run again, the verifier's determinism (its scores mix
  // passed and failed subtasks, so it exercises both paths of the verifier in one trial).
  const quickPartial = o.quick === true && hasPartial;
  const oracleSeeds = quickPartial ? [firstSeed] : o.seeds;
  const failSeeds = o.quick ? [firstSeed] : o.seeds;
  const partialSeeds = o.quick ? [lastSeed] : o.seeds;

  const oracle: TrialResult[] = [];
  for (const seed of oracleSeeds) oracle.push(await trial("oracle", seed));
  rewards.oracle = oracle.map((r) => r.reward);
  const badOracle = oracle.filter((r) => r.reward !== 1);
  checks.push({
    name: quickPartial ? "oracle R = 1.0 on the first seed" : "oracle R = 1.0 on every seed",
    ok: badOracle.length === 0,
    detail: badOracle.length === 0 ? `${oracle.length} seeds` : badOracle.map(describeFailure).join("; "),
  });

  const nop: TrialResult[] = [];
  if (o.nop !== false) for (const seed of failSeeds) nop.push(await trial("nop", seed));
  rewards.nop = nop.map((r) => r.reward);
  const badNop = nop.filter((r) => r.reward === null || !(r.reward <= 0.05)); // NaN is no pass
  if (o.nop !== false)
    checks.push({
      name: o.quick ? "nop R ≤ 0.05 on the first seed" : "nop R ≤ 0.05 on every seed",
      ok: badNop.length === 0,
      detail:
        badNop.length === 0
          ? `max ${Math.max(...nop.map((r) => r.reward ?? 0)).toFixed(3)}`
          : badNop.map((r) => `seed ${r.seed}: R=${r.reward ?? "null"} (${passingSubtasks(r)})`).join("; "),
    });

  const partial: TrialResult[] = [];
  if (hasPartial) {
    for (const seed of partialSeeds) partial.push(await trial("partial", seed));
    rewards.partial = partial.map((r) => r.reward);
    const badPartial = partial.filter((r) => r.reward === null || r.reward <= 0.2 || r.reward >= 0.8);
    checks.push({
      name: o.quick ? "partial 0.2 < R < 0.8 on the last seed" : "partial 0.2 < R < 0.8 on every seed",
      ok: badPartial.length === 0,
      detail:
        badPartial.length === 0
          ? partial.map((r) => (r.reward ?? 0).toFixed(3)).join(" ")
          : badPartial.map((r) => `seed ${r.seed}: R=${r.reward ?? "null"}`).join("; "),
    });
  }

  // One extra run per agent on one seed: the same seed must give the same scores and the same
  // hidden inputs, for every agent (a verifier can be deterministic for a solution that passes
  // everything and still flaky for one that fails part of it).
  type Run = [agent: string, first: TrialResult | undefined];
  const again: Run[] = [];
  if (o.rerun !== false) {
    if (quickPartial) again.push(["partial", partial[0]]);
    else if (o.quick) again.push(["oracle", oracle[0]]);
    else {
      again.push(["oracle", oracle[0]]);
      if (o.nop !== false) again.push(["nop", nop[0]]);
      if (hasPartial) again.push(["partial", partial[0]]);
    }
  }
  const rerunSeed = quickPartial ? lastSeed : firstSeed;
  const differences: string[] = [];
  for (const [agent, first] of again) {
    const second = await trial(agent, rerunSeed);
    const why = first ? rerunDifference(first, second) : "no first run";
    if (why !== null) differences.push(`${agent}: ${why}`);
  }
  if (again.length > 0)
    checks.push({
      name: "verifier deterministic (same seed → same scores)",
      ok: differences.length === 0,
      detail:
        differences.length === 0
          ? `seed ${rerunSeed} twice for ${again.map(([a]) => a).join(", ")}`
          : `seed ${rerunSeed}: ${differences.join("; ")}`,
    });

  if (o.mutants !== false) {
    const found = readMutants(task.paths.solution);
    mutants.push(...(await runMutants(task, found.mutants, trial, failSeeds, o.mutantStop)));
    checks.push(...mutantChecks(mutants, o.minMutants ?? 0, o.quick === true, found.broken));
  }

  const distinct = distinctStress([...oracle, ...partial]);
  if (distinct !== null) {
    checks.push({
      name: "different seeds → different stress inputs",
      ok: distinct.digests === distinct.seeds,
      detail: `${distinct.digests} distinct stress digests over ${distinct.seeds} seeds`,
    });
  }

  const total = task.rubric.subtasks.reduce((s, x) => s + x.weight, 0);
  const pub = task.rubric.subtasks.filter((x) => x.visibility === "public").reduce((s, x) => s + x.weight, 0);
  const share = total > 0 ? pub / total : 0;
  checks.push({
    name: `public weight ≤ ${MAX_PUBLIC_WEIGHT * 100}%`,
    ok: share <= MAX_PUBLIC_WEIGHT + 1e-9,
    detail: `${(share * 100).toFixed(1)}%`,
  });
  return checks;
}

/**
 * One stress digest per seed (the first trial's) over the seeds whose trials recorded one; null
 * when fewer than two seeds did (nothing to compare).
 */
function distinctStress(trials: readonly TrialResult[]): { seeds: number; digests: number } | null {
  const bySeed = new Map<number, string>();
  for (const r of trials) {
    if (r.stress_digest !== null && !bySeed.has(r.seed)) bySeed.set(r.seed, r.stress_digest);
  }
  if (bySeed.size < 2) return null;
  return { seeds: bySeed.size, digests: new Set(bySeed.values()).size };
}

function describeFailure(r: TrialResult): string {
  const failing = r.subtasks.filter((s) => s.score < 1).map((s) => `${s.id}=${s.score.toFixed(3)}`);
  const why = r.outcome !== "completed" ? `${r.outcome}: ${r.error?.message ?? ""}` : failing.join(", ");
  // A grading error's message is its first grading error: said once.
  const more = r.grading_errors.filter((g) => g !== r.error?.message);
  return `seed ${r.seed}: R=${r.reward ?? "null"} (${why}${more.length ? `; ${more.join("; ")}` : ""})${deadlineHint(r)}`;
}

/** The kit's words for subtasks cut short by the verifier's run deadline (docs/grader-kit.md). */
const RUN_DEADLINE_MESSAGE = /the time for candidate programs ran out/;

/**
 * When the verifier's run deadline cut subtasks short, the oracle's programs needed more time
 * than the task allows: say so, since the subtasks' scores alone look like wrong answers.
 */
export function deadlineHint(r: TrialResult): string {
  const cut = r.subtasks.filter((s) => RUN_DEADLINE_MESSAGE.test(s.message ?? "")).map((s) => s.id);
  if (cut.length === 0) return "";
  return ` — the verifier's run deadline cut ${cut.join(", ")} short: raise [verifier] timeout_sec or make the grader faster`;
}

function passingSubtasks(r: TrialResult): string {
  const scoring = r.subtasks.filter((s) => s.score > 0).map((s) => `${s.id}=${s.score.toFixed(3)}`);
  return scoring.length > 0 ? `scoring subtasks: ${scoring.join(", ")}` : (r.error?.message ?? "");
}

/** Null when two runs on one seed agree; otherwise what differed (or why there was nothing to compare). */
export function rerunDifference(first: TrialResult, again: TrialResult): string | null {
  const empty = [first, again].map(producedNothing);
  if (empty[0] !== null || empty[1] !== null) {
    return `verifier produced no scores (${empty[0] ?? "first run ok"} / ${empty[1] ?? "second run ok"})`;
  }
  const a = new Map(first.subtasks.map((s) => [s.id, s.score]));
  const b = new Map(again.subtasks.map((s) => [s.id, s.score]));
  const ids = [...new Set([...a.keys(), ...b.keys()])];
  const changed = ids
    .filter((id) => a.get(id) !== b.get(id))
    .map((id) => `${id} ${a.get(id) ?? "missing"} vs ${b.get(id) ?? "missing"}`);
  if (first.stress_digest !== again.stress_digest) {
    changed.push(`stress digest ${first.stress_digest ?? "none"} vs ${again.stress_digest ?? "none"}`);
  }
  return changed.length === 0 ? null : changed.join(", ");
}

function producedNothing(r: TrialResult): string | null {
  if (r.subtasks.length === 0) return `no subtasks: ${r.outcome}${r.error ? ` ${r.error.message}` : ""}`;
  if (r.grading_errors.length > 0) return `grading errors: ${r.grading_errors.join("; ")}`;
  return null;
}
