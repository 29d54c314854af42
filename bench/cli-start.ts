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
import { emptyUsage, type TrialResult } from "../src/core/index.js";
import { JobStore } from "../src/store/index.js";

const TARGET_HELP_MS = 200;

const { values } = parseArgs({
  options: { cli: { type: "string", default: "dist/cli/main.js" }, runs: { type: "string", default: "15" } },
});
const cli = resolve(values.cli);
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a positive integer, got ${values.runs}`);

function trial(jobId: string, task: string, model: string, reward: number): TrialResult {
  return {
    schema_version: 1,
    job_id: jobId,
    trial_id: `${task}__oracle__${model.replace(/\W/g, "_")}__a0`,
    task: { name: task, checksum: "c".repeat(64), category: "data", difficulty: null, path: "/nonexistent" },
    agent: "oracle",
    model,
    attempt: 0,
    seed: 1,
    timing: {
      started_at: "2026-01-01T00:00:00.000Z",
      finished_at: "2026-01-01T00:01:00.000Z",
      setup_sec: 1,
      agent_sec: 50,
      verifier_sec: 9,
      verifier_command_sec: 8,
      total_sec: 60,
    },
    outcome: "completed",
    self_terminated: false,
    reward,
    subtasks: [],
    grading_errors: [],
    usage: emptyUsage(),
    infra_retries: 0,
    error: null,
    stress_digest: null,
    budget_left_sec: null,
    continuation: null,
  };
}

/** 2 models × 5 tasks: small, so the figure is start-up and not the summary. */
async function makeJob(jobsDir: string): Promise<void> {
  const store = await JobStore.open(jobsDir);
  try {
    const models = ["x:model-a", "x:model-b"];
    await store.createJob({
      schema_version: 1,
      job_id: "bench-job",
      created_at: "2026-01-01T00:00:00.000Z",
      tasks: [],
      agents: ["oracle"],
      models,
      attempts: 1,
      concurrency: 1,
      timeout_multiplier: 1,
      retries: 0,
      seed: 1,
      sandbox: "bwrap",
      agent_options: {},
    });
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
