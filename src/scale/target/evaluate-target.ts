import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reaches, THRESHOLDS } from "../../analysis/summary-types.js";
import { errorMessage, InfraError, type TrialResult } from "../../core/index.js";
import { Rng } from "../../core/rng.js";
import { trialResultSchema } from "../../core/trial-result.js";
import { runTrial } from "../../runner/run-trial.js";
import { prepareTask } from "../../runner/task-image.js";
import type { SandboxProvider } from "../../sandbox/types.js";
import { loadTask } from "../../task/load.js";
import type { TargetRecord } from "./target-record.js";

/** The agent the adaptive stop measures each approved child with (`scale --target-agent`). */
export interface TargetAgent {
  agent: string;
  model: string | null;
  /** Trials per child (default 3). */
  attempts: number;
  agentOptions?: Record<string, string>;
}

export interface EvaluateInput {
  target: TargetAgent;
  childDir: string;
  childId: string;
  /** Where the trials' folders are kept (logs, trajectories). */
  trialsDir: string;
  provider: SandboxProvider;
  /** The lineage's seed: each attempt's hidden verifier seed derives from it, the child and the attempt. */
  seed: number;
  timeoutMultiplier?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/** Infrastructure failures of one attempt are retried this many times, as `run` does by default. */
const INFRA_RETRIES = 2;

/** R at or above the analysis pass threshold (docs/reports.md); a null R never passes. */
export function passes(reward: number | null): boolean {
  return reward !== null && reaches(reward, THRESHOLDS.pass);
}

/**
 * An attempt a stopped run finished (`scale --resume` grows the child again, byte for byte): its
 * result, when it is of this child's files, this agent and this attempt's seed; else null. So a
 * model agent's attempts are not paid for twice.
 */
function finishedAttempt(dir: string, e: EvaluateInput, checksum: string, seed: number): TrialResult | null {
  const file = join(dir, "result.json");
  if (!existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
  const r = trialResultSchema.safeParse(raw);
  if (!r.success) return null;
  const same =
    r.data.task.checksum === checksum &&
    r.data.seed === seed &&
    r.data.agent === e.target.agent &&
    r.data.model === e.target.model;
  return same ? r.data : null;
}

/**
 * Real trials of the target agent on one child, one after another, through the runner: the
 * child's image is prepared once and every attempt gets a fresh sandbox.
 */
export async function evaluateTarget(e: EvaluateInput): Promise<TargetRecord> {
  const t0 = performance.now();
  const scratch = mkdtempSync(join(tmpdir(), "longhaul-res-target-"));
  try {
    const task = await loadTask(e.childDir);
    const ready = await prepareTask(task, join(scratch, "images"));
    const results: TrialResult[] = [];
    for (let a = 1; a <= e.target.attempts; a++) {
      if (!ready.ok) break;
      const seed = new Rng(`${e.seed}:target:${e.childId}:${a}`).nextU32();
      results.push(await attempt(e, ready, a, seed));
    }
    const rewards = ready.ok ? results.map((r) => r.reward) : Array(e.target.attempts).fill(null);
    const outcomes = ready.ok ? results.map((r) => r.outcome) : Array(e.target.attempts).fill("infra_error");
    if (!ready.ok) e.log?.(`${e.childId}: target cannot run: ${ready.error}`);
    const passed = rewards.filter(passes).length;
    return {
      agent: e.target.agent,
      model: e.target.model,
      attempts: e.target.attempts,
      rewards,
      outcomes,
      threshold: THRESHOLDS.pass,
      passes: passed,
      passed: passed > 0,
      seconds: Math.round(performance.now() - t0) / 1000,
      tokens: {
        input: results.reduce((s, r) => s + r.usage.input_tokens, 0),
        output: results.reduce((s, r) => s + r.usage.output_tokens, 0),
      },
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function attempt(
  e: EvaluateInput,
  ready: Extract<Awaited<ReturnType<typeof prepareTask>>, { ok: true }>,
  a: number,
  seed: number,
): Promise<TrialResult> {
  const dir = join(e.trialsDir, `a${a}`);
  const kept = finishedAttempt(dir, e, ready.task.checksum, seed);
  if (kept !== null) {
    e.log?.(
      `${e.childId}: target ${e.target.agent} attempt ${a}: R = ${kept.reward ?? "null"}, kept from the interrupted run`,
    );
    return kept;
  }
  // An attempt a stopped run left unfinished starts again from nothing.
  rmSync(dir, { recursive: true, force: true });
  let last: unknown;
  for (let retry = 0; retry <= INFRA_RETRIES; retry++) {
    try {
      const r = await runTrial({
        jobId: "res-target",
        trialId: `${e.childId}__${e.target.agent}__a${a}`,
        trialDir: join(e.trialsDir, `a${a}`),
        task: ready.task,
        image: ready.image,
        agent: e.target.agent,
        agentOptions: e.target.agentOptions ?? {},
        model: e.target.model,
        attempt: a,
        seed,
        provider: e.provider,
        timeoutMultiplier: e.timeoutMultiplier ?? 1,
        signal: e.signal ?? new AbortController().signal,
      });
      // Beside the trial's logs, as a job keeps it (docs/store.md), for inspection.
      mkdirSync(join(e.trialsDir, `a${a}`), { recursive: true });
      writeFileSync(join(e.trialsDir, `a${a}`, "result.json"), `${JSON.stringify(r, null, 2)}\n`);
      e.log?.(
        `${e.childId}: target ${e.target.agent} attempt ${a}: R = ${r.reward ?? "null"} (${r.outcome})`,
      );
      return r;
    } catch (err) {
      if (!(err instanceof InfraError) || !err.retryable) throw err;
      last = err;
      e.log?.(`${e.childId}: target attempt ${a} infrastructure failure, retrying: ${errorMessage(err)}`);
    }
  }
  throw last;
}
