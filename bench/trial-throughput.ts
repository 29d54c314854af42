/**
 * Trial throughput and harness overhead: nop agent, trivial verifier (writes reward.txt), in the
 * bwrap sandbox, at -n 1 and -n 2. Overhead per trial = a trial's wall time minus the wall time
 * of its agent commands and of tests/test.sh itself.
 *
 *   npx tsx bench/trial-throughput.ts [trials=40]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runJob } from "../src/runner/index.js";
import { getSandboxProvider } from "../src/sandbox/registry.js";
import { JobStore } from "../src/store/index.js";
import { loadTask } from "../src/task/index.js";

const trials = Number(process.argv[2] ?? 40);
const task = await loadTask(resolve(import.meta.dirname, "../test/fixtures/tasks/trivial"));
const provider = getSandboxProvider("bwrap");

function pct(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
}

const rows: { n: number; perSec: number; p50: number; p95: number }[] = [];
for (const n of [1, 2]) {
  const dir = mkdtempSync(join(tmpdir(), "longhaul-bench-"));
  const store = await JobStore.open(dir);
  const t0 = performance.now();
  const out = await runJob({
    store,
    provider,
    resume: false,
    tasks: [task],
    config: {
      schema_version: 1,
      job_id: `bench-n${n}`,
      created_at: new Date().toISOString(),
      tasks: [{ name: task.name, path: task.dir, checksum: task.checksum }],
      agents: ["nop"],
      models: [null],
      attempts: trials,
      concurrency: n,
      timeout_multiplier: 1,
      retries: 0,
      seed: 1,
      sandbox: "bwrap",
      agent_options: {},
    },
  });
  const wall = (performance.now() - t0) / 1000;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  const bad = out.trials.filter((t) => t.reward !== 1).length;
  if (bad > 0) throw new Error(`${bad} trials did not score 1`);
  const overhead = out.trials.map(
    (t) => (t.timing.total_sec - t.usage.command_sec - t.timing.verifier_command_sec) * 1000,
  );
  rows.push({ n, perSec: out.trials.length / wall, p50: pct(overhead, 0.5), p95: pct(overhead, 0.95) });
}
console.log(`trial throughput, nop agent + trivial verifier, ${trials} trials per setting`);
for (const r of rows) {
  console.log(
    `  -n ${r.n}: ${r.perSec.toFixed(2)} trials/s   harness overhead per trial p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`,
  );
}
const [a, b] = rows;
if (a && b)
  console.log(`  speed-up -n 2 vs -n 1: ${(b.perSec / a.perSec).toFixed(2)}x   (target overhead ≤ 100 ms)`);
