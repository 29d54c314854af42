import type { TrialResult } from "../../src/core/index.js";
import { runTrial } from "../../src/runner/run-trial.js";
import { prepareTask } from "../../src/runner/task-image.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import type { SandboxProvider } from "../../src/sandbox/types.js";
import { loadTask } from "../../src/task/load.js";

/** One trial of the task folder `dir`, outside any job: its image is prepared in `imagesDir`. */
export interface OneTrial {
  dir: string;
  agent: string;
  seed: number;
  trialDir: string;
  imagesDir: string;
  jobId: string;
  trialId: string;
  agentOptions?: Record<string, string>;
  /** Default: bwrap. */
  provider?: SandboxProvider;
  stopAtFirstFailure?: boolean;
}

/** Loads the task, prepares its image and runs one trial of it, as the runner would. */
export async function runOneTrial(o: OneTrial): Promise<TrialResult> {
  const ready = await prepareTask(await loadTask(o.dir), o.imagesDir);
  if (!ready.ok) throw new Error(`${o.dir}: ${ready.error}`);
  return runTrial({
    jobId: o.jobId,
    trialId: o.trialId,
    trialDir: o.trialDir,
    task: ready.task,
    image: ready.image,
    agent: o.agent,
    agentOptions: o.agentOptions ?? {},
    model: null,
    attempt: 1,
    seed: o.seed,
    provider: o.provider ?? getSandboxProvider("bwrap"),
    timeoutMultiplier: 1,
    signal: new AbortController().signal,
    stopAtFirstFailure: o.stopAtFirstFailure === true,
  });
}
