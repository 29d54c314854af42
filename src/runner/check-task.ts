import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TrialResult } from "../core/index.js";
import type { SandboxProvider } from "../sandbox/types.js";
import type { Task } from "../task/types.js";
import { runTrial } from "./run-trial.js";

export interface CheckItem {
  name: string;
  ok: boolean;
  detail: string;
}

export interface TaskCheckResult {
  task: string;
  ok: boolean;
  checks: CheckItem[];
  rewards: { oracle: (number | null)[]; nop: (number | null)[]; partial: (number | null)[] };
}

export interface CheckOptions {
  provider: SandboxProvider;
  seeds: number[];
  signal?: AbortSignal;
  timeoutMultiplier?: number;
}

/** The most a task's public subtasks may weigh: most reward must come from hidden checks. */
export const MAX_PUBLIC_WEIGHT = 0.2;

/**
 * Checks that a task is sound: the oracle reaches R = 1.0 on every seed, nop stays ≤ 0.05, the
 * partial solution (when shipped) lands strictly between 0.2 and 0.8, the verifier is
 * deterministic for a seed, and public subtasks weigh at most 20%.
 */
export async function checkTask(task: Task, o: CheckOptions): Promise<TaskCheckResult> {
  const scratch = mkdtempSync(join(tmpdir(), `longhaul-check-${task.name}-`));
  const signal = o.signal ?? new AbortController().signal;
  let counter = 0;
  const trial = async (agent: string, seed: number): Promise<TrialResult> => {
    counter += 1;
    const trialId = `${agent}-${seed}-${counter}`;
    return runTrial({
      jobId: "task-check",
      trialId,
      trialDir: join(scratch, trialId),
      task,
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
  const rewards: TaskCheckResult["rewards"] = { oracle: [], nop: [], partial: [] };
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

    const nop: TrialResult[] = [];
    for (const seed of o.seeds) nop.push(await trial("nop", seed));
    rewards.nop = nop.map((r) => r.reward);
    const badNop = nop.filter((r) => r.reward === null || r.reward > 0.05);
    checks.push({
      name: "nop R ≤ 0.05 on every seed",
      ok: badNop.length === 0,
      detail:
        badNop.length === 0
          ? `max ${Math.max(...nop.map((r) => r.reward ?? 0)).toFixed(3)}`
          : badNop.map((r) => `seed ${r.seed}: R=${r.reward ?? "null"} (${passingSubtasks(r)})`).join("; "),
    });

    if (existsSync(join(task.paths.solution, "partial.sh"))) {
      const partial: TrialResult[] = [];
      for (const seed of o.seeds) partial.push(await trial("partial", seed));
      rewards.partial = partial.map((r) => r.reward);
      const badPartial = partial.filter((r) => r.reward === null || r.reward <= 0.2 || r.reward >= 0.8);
      checks.push({
        name: "partial 0.2 < R < 0.8 on every seed",
        ok: badPartial.length === 0,
        detail:
          badPartial.length === 0
            ? partial.map((r) => (r.reward ?? 0).toFixed(3)).join(" ")
            : badPartial.map((r) => `seed ${r.seed}: R=${r.reward ?? "null"}`).join("; "),
      });
      const firstSeed = o.seeds[0] ?? 1;
      const again = await trial("partial", firstSeed);
      const first = partial[0];
      const same = first !== undefined && scoresKey(first) === scoresKey(again);
      checks.push({
        name: "verifier deterministic (same seed → same scores)",
        ok: same,
        detail: same
          ? `seed ${firstSeed} twice`
          : `seed ${firstSeed}: ${scoresKey(first)} vs ${scoresKey(again)}`,
      });
    }

    const digests = new Set(
      oracle.map((r) => stressDigest(join(scratch, r.trial_id))).filter((d): d is string => d !== null),
    );
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

function scoresKey(r: TrialResult | undefined): string {
  if (!r) return "";
  return r.subtasks.map((s) => `${s.id}:${s.score.toFixed(6)}`).join(",");
}

/** The verifier may record a digest of the stress inputs it generated (grader kit: stress_digest). */
function stressDigest(trialDir: string): string | null {
  const path = join(trialDir, "verifier", "logs", "reward-details.json");
  if (!existsSync(path)) return null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof parsed === "object" && parsed !== null && "stress_digest" in parsed) {
      const d = parsed.stress_digest;
      return typeof d === "string" ? d : null;
    }
  } catch {
    return null;
  }
  return null;
}
