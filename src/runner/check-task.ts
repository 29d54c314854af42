import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TrialResult } from "../core/index.js";
import type { SandboxProvider } from "../sandbox/types.js";
import type { Task } from "../task/types.js";
import { runTrial } from "./run-trial.js";
import { prepareTask } from "./task-image.js";

export interface CheckItem {
  name: string;
  ok: boolean;
  detail: string;
}

/** checkTask's verdict: each check with its detail, and the rewards seen per agent. */
export interface TaskCheckResult {
  task: string;
  ok: boolean;
  checks: CheckItem[];
  rewards: { oracle: (number | null)[]; nop: (number | null)[]; partial: (number | null)[] };
}

/** How checkTask runs: the sandbox provider, the stress seeds to try, and an optional abort signal. */
export interface CheckOptions {
  provider: SandboxProvider;
  seeds: number[];
  signal?: AbortSignal;
  timeoutMultiplier?: number;
  /**
   * Nop and partial on the first seed only (the oracle still runs every seed), and only the
   * partial (else the oracle) re-run for determinism: a cheaper check while authoring.
   */
  quick?: boolean;
}

/** The most a task's public subtasks may weigh: most reward must come from hidden checks. */
export const MAX_PUBLIC_WEIGHT = 0.2;

/**
 * Checks that a task is sound: the oracle reaches R = 1.0 on every seed, nop stays ≤ 0.05, the
 * partial solution (when shipped) lands strictly between 0.2 and 0.8, the verifier gives the same
 * scores and stress digest when oracle, nop and partial each run their first seed again, and public
 * subtasks weigh at most 20%.
 */
export async function checkTask(task: Task, o: CheckOptions): Promise<TaskCheckResult> {
  const rewards: TaskCheckResult["rewards"] = { oracle: [], nop: [], partial: [] };
  if (!existsSync(join(task.paths.solution, "solve.sh"))) {
    const detail = `${join(task.paths.solution, "solve.sh")} is missing: the oracle has nothing to run`;
    return {
      task: task.name,
      ok: false,
      checks: [{ name: "solution/solve.sh exists", ok: false, detail }],
      rewards,
    };
  }
  const scratch = mkdtempSync(join(tmpdir(), `longhaul-check-${task.name.replaceAll("/", "_")}-`));
  const ready = await prepareTask(task, join(scratch, "images"));
  if (!ready.ok) {
    rmSync(scratch, { recursive: true, force: true });
    return {
      task: task.name,
      ok: false,
      checks: [{ name: "image builds", ok: false, detail: ready.error }],
      rewards,
    };
  }
  const signal = o.signal ?? new AbortController().signal;
  let counter = 0;
  const trial = async (agent: string, seed: number): Promise<TrialResult> => {
    counter += 1;
    const trialId = `${agent}-${seed}-${counter}`;
    return runTrial({
      jobId: "task-check",
      trialId,
      trialDir: join(scratch, trialId),
      task: ready.task,
      image: ready.image,
      agent,
      agentOptions: {},
      model: null,
      attempt: 1,
      seed,
      provider: o.provider,
      timeoutMultiplier: o.timeoutMultiplier ?? 1,
      signal,
    });
  };
  const checks: CheckItem[] = [];
  try {
    const oracle: TrialResult[] = [];
    for (const seed of o.seeds) oracle.push(await trial("oracle", seed));
    rewards.oracle = oracle.map((r) => r.reward);
    const badOracle = oracle.filter((r) => r.reward !== 1);
    checks.push({
      name: "oracle R = 1.0 on every seed",
      ok: badOracle.length === 0,
      detail: badOracle.length === 0 ? `${oracle.length} seeds` : badOracle.map(describeFailure).join("; "),
    });

    // Failing runs: every seed, or the first one only in a quick check.
    const failSeeds = o.quick ? o.seeds.slice(0, 1) : o.seeds;
    const nop: TrialResult[] = [];
    for (const seed of failSeeds) nop.push(await trial("nop", seed));
    rewards.nop = nop.map((r) => r.reward);
    const badNop = nop.filter((r) => r.reward === null || r.reward > 0.05);
    checks.push({
      name: o.quick ? "nop R ≤ 0.05 on the first seed" : "nop R ≤ 0.05 on every seed",
      ok: badNop.length === 0,
      detail:
        badNop.length === 0
          ? `max ${Math.max(...nop.map((r) => r.reward ?? 0)).toFixed(3)}`
          : badNop.map((r) => `seed ${r.seed}: R=${r.reward ?? "null"} (${passingSubtasks(r)})`).join("; "),
    });

    let partialFirst: TrialResult | undefined;
    if (existsSync(join(task.paths.solution, "partial.sh"))) {
      const partial: TrialResult[] = [];
      for (const seed of failSeeds) partial.push(await trial("partial", seed));
      rewards.partial = partial.map((r) => r.reward);
      partialFirst = partial[0];
      const badPartial = partial.filter((r) => r.reward === null || r.reward <= 0.2 || r.reward >= 0.8);
      checks.push({
        name: o.quick ? "partial 0.2 < R < 0.8 on the first seed" : "partial 0.2 < R < 0.8 on every seed",
        ok: badPartial.length === 0,
        detail:
          badPartial.length === 0
            ? partial.map((r) => (r.reward ?? 0).toFixed(3)).join(" ")
            : badPartial.map((r) => `seed ${r.seed}: R=${r.reward ?? "null"}`).join("; "),
      });
    }

    // One extra run per agent on the first seed: the same seed must give the same scores and the
    // same hidden inputs, for every agent (a verifier can be deterministic for a solution that
    // passes everything and still flaky for one that fails part of it).
    // A quick check re-runs only the partial (else the oracle): its scores mix passed and failed
    // subtasks, so it exercises both paths of the verifier in one trial.
    const firstSeed = o.seeds[0] ?? 1;
    const firstRuns: [string, TrialResult | undefined][] = o.quick
      ? [partialFirst ? ["partial", partialFirst] : ["oracle", oracle[0]]]
      : [
          ["oracle", oracle[0]],
          ["nop", nop[0]],
        ];
    if (partialFirst && !o.quick) firstRuns.push(["partial", partialFirst]);
    const differences: string[] = [];
    for (const [agent, first] of firstRuns) {
      const again = await trial(agent, firstSeed);
      const why = first ? rerunDifference(first, again) : "no first run";
      if (why !== null) differences.push(`${agent}: ${why}`);
    }
    checks.push({
      name: "verifier deterministic (same seed → same scores)",
      ok: differences.length === 0,
      detail:
        differences.length === 0
          ? `seed ${firstSeed} twice for ${firstRuns.map(([a]) => a).join(", ")}`
          : `seed ${firstSeed}: ${differences.join("; ")}`,
    });

    const digests = new Set(oracle.map((r) => r.stress_digest).filter((d): d is string => d !== null));
    if (digests.size > 0 && o.seeds.length > 1) {
      checks.push({
        name: "different seeds → different stress inputs",
        ok: digests.size === o.seeds.length,
        detail: `${digests.size} distinct stress digests over ${o.seeds.length} seeds`,
      });
    }

    const total = task.rubric.subtasks.reduce((s, x) => s + x.weight, 0);
    const pub = task.rubric.subtasks
      .filter((x) => x.visibility === "public")
      .reduce((s, x) => s + x.weight, 0);
    const share = total > 0 ? pub / total : 0;
    checks.push({
      name: `public weight ≤ ${MAX_PUBLIC_WEIGHT * 100}%`,
      ok: share <= MAX_PUBLIC_WEIGHT + 1e-9,
      detail: `${(share * 100).toFixed(1)}%`,
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { task: task.name, ok: checks.every((c) => c.ok), checks, rewards };
}

function describeFailure(r: TrialResult): string {
  const failing = r.subtasks.filter((s) => s.score < 1).map((s) => `${s.id}=${s.score.toFixed(3)}`);
  const why = r.outcome !== "completed" ? `${r.outcome}: ${r.error?.message ?? ""}` : failing.join(", ");
  return `seed ${r.seed}: R=${r.reward ?? "null"} (${why}${r.grading_errors.length ? `; ${r.grading_errors.join("; ")}` : ""})`;
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
