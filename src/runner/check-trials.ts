import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TrialResult } from "../core/index.js";
import type { SandboxProvider } from "../sandbox/types.js";
import type { Task } from "../task/types.js";
import { runTrial } from "./run-trial.js";
import { prepareTask } from "./task-image.js";

/** What one check trial may add to agent and seed. */
export interface CheckTrialExtra {
  agentOptions?: Record<string, string>;
  /** The verifier may stop once R below this is certain (TrialParams.stopBelow). */
  stopBelow?: number;
}

/** Runs one trial of the task being checked, in the check's scratch folder. */
export type CheckTrial = (agent: string, seed: number, extra?: CheckTrialExtra) => Promise<TrialResult>;

/** The sandbox and limits every trial of a check shares. */
export interface CheckTrialOptions {
  provider: SandboxProvider;
  signal?: AbortSignal;
  timeoutMultiplier?: number;
}

/**
 * Prepares the task's image in a scratch folder and gives `body` a trial runner over it; the
 * scratch folder is removed afterwards. A task whose image does not build gets `{ error }` back.
 */
export async function withCheckTrials<T>(
  task: Task,
  o: CheckTrialOptions,
  body: (trial: CheckTrial) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  const scratch = mkdtempSync(join(tmpdir(), `longhaul-check-${task.name.replaceAll("/", "_")}-`));
  try {
    const ready = await prepareTask(task, join(scratch, "images"));
    if (!ready.ok) return { ok: false, error: ready.error };
    const signal = o.signal ?? new AbortController().signal;
    let counter = 0;
    const trial: CheckTrial = async (agent, seed, extra = {}) => {
      counter += 1;
      const label = extra.agentOptions?.name === undefined ? agent : `${agent}-${extra.agentOptions.name}`;
      const trialId = `${label}-${seed}-${counter}`;
      return runTrial({
        jobId: "task-check",
        trialId,
        trialDir: join(scratch, trialId),
        task: ready.task,
        image: ready.image,
        agent,
        agentOptions: extra.agentOptions ?? {},
        model: null,
        attempt: 1,
        seed,
        provider: o.provider,
        timeoutMultiplier: o.timeoutMultiplier ?? 1,
        signal,
        ...(extra.stopBelow === undefined ? {} : { stopBelow: extra.stopBelow }),
      });
    };
    return { ok: true, value: await body(trial) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
