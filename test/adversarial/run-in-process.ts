import { runJob } from "../../src/runner/index.js";
import { JobStore } from "../../src/store/index.js";
import { jobConfig } from "../runner/helpers.js";
import { attackTasks } from "./attack-tasks.js";
import { providerByName } from "./providers.js";
import { type ChildOutcome, HOST_SECRET } from "./spawn-child.js";
import type { ChildSpec } from "./trial-child.js";

// The host process's own environment holds a secret, so a leak of /proc/self/environ is visible.
process.env.LH_HOST_SECRET = HOST_SECRET;

/** Runs the job in this process: fast, for attacks that cannot hang or balloon the host. */
export async function runInProcess(spec: Omit<ChildSpec, "out">): Promise<ChildOutcome> {
  const tasks = await attackTasks(spec.tasks, spec.agentTimeoutSec);
  const store = await JobStore.open(spec.jobsDir);
  try {
    const config = jobConfig(tasks, {
      job_id: spec.jobId,
      agents: ["shell"],
      agent_options: { cmd: spec.cmd },
      seed: spec.seed,
    });
    const startMs = Date.now();
    const out = await runJob({
      store,
      config,
      tasks,
      provider: providerByName(spec.provider),
      resume: false,
    });
    const trials = out.trials.map((t) => ({ result: t, dir: store.trialDir(spec.jobId, t.trial_id) }));
    return { trials, wallMs: Date.now() - startMs, startMs, hostFailure: null };
  } catch (e) {
    return { trials: [], wallMs: 0, startMs: 0, hostFailure: `runJob threw: ${String(e)}` };
  } finally {
    await store.close();
  }
}
