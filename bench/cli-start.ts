/**
 * CLI start-up, whole process (spawn to exit), median and p90 of N runs each:
 * `--help`, `--version`, `report` on a small job in a temporary jobs dir, and `node -e 0` (Node's
 * own start, the floor). Run: npx tsx bench/cli-start.ts [--cli dist/cli/main.js] [--runs 15]
 * (`--cli` can point at another checkout's built CLI to compare.)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { TrialResult } from "../src/core/index.js";
import { JobStore } from "../src/store/index.js";
import { storedJobConfig, storedTask, storedTrial } from "../test/support/stored-trials.js";

const TARGET_HELP_MS = 200;

const { values } = parseArgs({
  options: { cli: { type: "string", default: "dist/cli/main.js" }, runs: { type: "string", default: "15" } },
});
const cli = resolve(values.cli);
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a positive integer, got ${values.runs}`);

function trial(jobId: string, task: string, model: string, reward: number): TrialResult {
  return storedTrial({
    job_id: jobId,
    trial_id: `${task}__oracle__${model.replace(/\W/g, "_")}__a0`,
    task: storedTask(task),
    model,
    reward,
  });
}

/** 2 models × 5 tasks: small, so the figure is start-up and not the summary. */
async function makeJob(jobsDir: string): Promise<void> {
  const store = await JobStore.open(jobsDir);
  try {
    const models = ["x:model-a", "x:model-b"];
    await store.createJob(storedJobConfig({ job_id: "bench-job", models }));
    for (const [m, model] of models.entries())
      for (let t = 0; t < 5; t++) await store.recordTrial(trial("bench-job", `t${t}`, model, (t + m) / 6));
  } finally {
    await store.close();
  }
}

/** Exit status is kept, not thrown: an older build answers `--version` with exit 2. */
function timeRuns(args: string[]): { p50: number; p90: number; status: number | null } {
  const ms: number[] = [];
  let status: number | null = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    ms.push(performance.now() - t0);
    status = r.status;
  }
  ms.sort((a, b) => a - b);
  const at = (q: number): number => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? Number.NaN;
  return { p50: at(0.5), p90: at(0.9), status };
}

const jobsDir = mkdtempSync(join(tmpdir(), "lh-cli-start-"));
try {
  await makeJob(jobsDir);
  const cases: [string, string[]][] = [
    ["node -e 0 (floor)", ["-e", "0"]],
    ["longhaul --help", [cli, "--help"]],
    ["longhaul --version", [cli, "--version"]],
    ["longhaul report (10 trials)", [cli, "report", "--jobs-dir", jobsDir, "bench-job"]],
  ];
  console.log(`${cli}, ${runs} runs each, whole process (spawn to exit)`);
  console.log("command                         p50 ms   p90 ms   p50 / floor");
  let floor = Number.NaN;
  for (const [name, args] of cases) {
    const { p50, p90, status } = timeRuns(args);
    if (Number.isNaN(floor)) floor = p50;
    console.log(
      `${name.padEnd(30)} ${p50.toFixed(0).padStart(7)} ${p90.toFixed(0).padStart(8)} ${(p50 / floor).toFixed(1).padStart(12)}${status === 0 ? "" : `  (exit ${status})`}`,
    );
    if (name === "longhaul --help")
      console.log(`  target ≤ ${TARGET_HELP_MS} ms p50: ${p50 <= TARGET_HELP_MS ? "met" : "NOT met"}`);
  }
} finally {
  rmSync(jobsDir, { recursive: true, force: true });
}
