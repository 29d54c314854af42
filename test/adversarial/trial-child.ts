/**
 * Runs one job in its own process, so that an attack which makes the host hang (a FIFO opened by
 * a synchronous read) or balloon (a reward file linked to /dev/zero) is seen by the test as a
 * failure instead of taking the test runner down with it. Usage: node --import tsx trial-child.ts SPEC
 */
import { readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { runJob } from "../../src/runner/index.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig } from "../runner/helpers.js";
import { providerByName } from "./providers.js";

export const childSpecSchema = z.object({
  jobsDir: z.string(),
  jobId: z.string(),
  tasks: z.array(z.string()).min(1),
  cmd: z.string(),
  provider: z.string(),
  seed: z.number().int(),
  out: z.string(),
});
export type ChildSpec = z.infer<typeof childSpecSchema>;

async function main(): Promise<void> {
  const specPath = process.argv[2];
  if (specPath === undefined) throw new Error("usage: trial-child.ts SPEC.json");
  const spec = childSpecSchema.parse(JSON.parse(readFileSync(specPath, "utf8")));
  const tasks = await Promise.all(spec.tasks.map((t) => fixtureTask(t)));
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

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`trial child failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(3);
  },
);
