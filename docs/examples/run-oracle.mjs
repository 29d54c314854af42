// Runs the oracle agent on two of the bundled tasks in the bwrap sandbox, records the job in a
// jobs folder (the first argument, or a new temporary one) and prints its summary.
//
//   node docs/examples/run-oracle.mjs [JOBS_DIR]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  buildJobConfig,
  bundledTasksDir,
  getSandboxProvider,
  JobStore,
  jobSummary,
  loadTasks,
  renderTable,
  runJob,
  summarize,
} from "longhaul";

const jobsDir = process.argv[2] ?? mkdtempSync(join(tmpdir(), "longhaul-jobs-"));

// Every bundled task, then the two this example runs.
const all = await loadTasks([bundledTasksDir()]);
const tasks = all.filter((t) => t.name === "log-digest" || t.name === "loan-schedule");
console.log(`loaded ${all.length} bundled tasks; running ${tasks.map((t) => t.name).join(", ")}`);

// The same checks and defaults as `longhaul run --agent oracle -n 2 --seed 7 --job oracle-demo`.
const config = buildJobConfig({ tasks, agents: ["oracle"], concurrency: 2, seed: 7, jobId: "oracle-demo" });
const provider = getSandboxProvider("bwrap");
await provider.check();

const store = await JobStore.open(jobsDir);
try {
  const outcome = await runJob({ store, config, tasks, provider, resume: false });
  // result.json of the job, as the CLI writes it.
  store.writeJobResult(config.job_id, jobSummary(config, outcome.trials, outcome.interrupted));
  for (const t of outcome.trials) {
    console.log(`trial ${t.task.name} ${t.agent} ${t.outcome} R=${t.reward?.toFixed(3) ?? "-"}`);
  }
  const summary = summarize(outcome.trials, { seed: 1 });
  const o = summary.overall;
  console.log(`job ${config.job_id} in ${jobsDir}`);
  console.log(`pass@1 (R >= ${summary.thresholds.pass}): ${o.pass095.k}/${o.pass095.n}, mean R ${o.meanReward.value?.toFixed(3)}`);
  console.log();
  console.log(renderTable(summary));
} finally {
  await store.close();
}
