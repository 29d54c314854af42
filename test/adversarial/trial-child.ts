/**
 * Runs jobs in a process of their own, so that an attack which makes the host hang (a FIFO opened
 * by a synchronous read) or balloon (a reward file linked to /dev/zero) is seen by the test as a
 * failure instead of taking the test runner down with it.
 * Started by spawn-child.ts with an IPC channel: each message is the path of a spec, answered with
 * { done: path } once its outcome is written. One process serves a test file's isolated attacks
 * in turn, so its start (seconds of module loading) and the first trial's set-up are paid once
 * per file; a process the watchdog killed leaves the next attack a fresh one.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { runJob } from "../../src/runner/index.js";
import { JobStore } from "../../src/store/index.js";
import { jobConfig } from "../runner/helpers.js";
import { attackTasks } from "./attack-tasks.js";
import { providerByName } from "./providers.js";

export const childSpecSchema = z.object({
  jobsDir: z.string(),
  jobId: z.string(),
  tasks: z.array(z.string()).min(1),
  cmd: z.string(),
  provider: z.string(),
  seed: z.number().int(),
  agentTimeoutSec: z.number().positive().optional(),
  out: z.string(),
});
export type ChildSpec = z.infer<typeof childSpecSchema>;

async function runSpec(specPath: string): Promise<void> {
  const spec = childSpecSchema.parse(JSON.parse(readFileSync(specPath, "utf8")));
  const tasks = await attackTasks(spec.tasks, spec.agentTimeoutSec);
  const store = await JobStore.open(spec.jobsDir);
  try {
    const config = jobConfig(tasks, {
      job_id: spec.jobId,
      agents: ["shell"],
      agent_options: { cmd: spec.cmd },
      seed: spec.seed,
    });
    const t0 = Date.now();
    const out = await runJob({
      store,
      config,
      tasks,
      provider: providerByName(spec.provider),
      resume: false,
    });
    const trials = out.trials.map((t) => ({ result: t, dir: store.trialDir(spec.jobId, t.trial_id) }));
    writeFileSync(spec.out, JSON.stringify({ trials, wallMs: Date.now() - t0, startMs: t0 }));
  } finally {
    await store.close();
  }
}

function failed(e: unknown): string {
  return `trial child failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
}

if (process.send === undefined) {
  process.stderr.write("trial-child.ts runs under an IPC channel (spawn-child.ts starts it)\n");
  process.exit(2);
}
const send = process.send.bind(process);
// One job at a time: the parent sends the next spec only after this one's answer.
process.on("message", (m: unknown) => {
  const path = z.string().parse(m);
  runSpec(path).then(
    () => send({ done: path }),
    (e: unknown) => send({ done: path, error: failed(e) }),
  );
});
// The parent gone (its test file ended, or it crashed): nothing is left to serve.
process.on("disconnect", () => process.exit(0));
