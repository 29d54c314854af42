/**
 * How long the runner's event loop stalls while trials run side by side: a job of trials over an
 * image task (overlay root, loop-mounted disk quota) whose agent leaves a flood of files in its
 * workdir, so each trial's set-up and clean-up (mkfs, mount, the workdir's repairs, removing the
 * state folder) is real work. Prints the event loop's delay (p50, p99, max) and the job's wall.
 *
 *   npx tsx bench/event-loop-delay.ts [--trials 8] [--concurrency 4] [--files 20000]
 *   npx tsx bench/event-loop-delay.ts --baseline DIR   # DIR: another checkout, measured in the same run
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    trials: { type: "string", default: "8" },
    concurrency: { type: "string", default: "4" },
    files: { type: "string", default: "20000" },
    root: { type: "string" },
    baseline: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const here = resolve(import.meta.dirname, "..");

interface Figures {
  root: string;
  p50: number;
  p99: number;
  max: number;
  wall: number;
  rewards: number[];
}

async function measure(root: string): Promise<Figures> {
  const mod = (p: string) => import(pathToFileURL(join(root, "src", p)).href);
  const { runJob } = await mod("runner/index.ts");
  const { getSandboxProvider } = await mod("sandbox/registry.ts");
  const { JobStore } = await mod("store/index.ts");
  const { loadTask } = await mod("task/index.ts");
  const task = await loadTask(join(here, "tasks", "heatwave-audit"));
  const dir = mkdtempSync(join(tmpdir(), "longhaul-bench-eld-"));
  const store = await JobStore.open(dir);
  const files = Number(values.files);
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const t0 = performance.now();
  const out = await runJob({
    store,
    provider: getSandboxProvider("bwrap"),
    resume: false,
    tasks: [task],
    config: {
      schema_version: 1,
      job_id: "bench-eld",
      created_at: new Date().toISOString(),
      tasks: [{ name: task.name, path: task.dir, checksum: task.checksum }],
      agents: ["shell"],
      models: [null],
      attempts: Number(values.trials),
      concurrency: Number(values.concurrency),
      timeout_multiplier: 1,
      retries: 0,
      seed: 1,
      sandbox: "bwrap",
      agent_options: { cmd: `mkdir -p flood && cd flood && seq ${files} | xargs touch` },
    },
  });
  const wall = (performance.now() - t0) / 1000;
  h.disable();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  const ms = (ns: number) => ns / 1e6;
  return {
    root,
    p50: ms(h.percentile(50)),
    p99: ms(h.percentile(99)),
    max: ms(h.max),
    wall,
    rewards: out.trials.map((t: { reward: number | null }) => t.reward ?? -1),
  };
}

function line(f: Figures): string {
  return `event loop delay p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, max ${f.max.toFixed(1)} ms; job wall ${f.wall.toFixed(2)} s (${f.root})`;
}

if (values.baseline !== undefined) {
  // Each checkout in a process of its own (its own module graph), one after the other.
  const run = (root: string): Figures => {
    const args = ["tsx", join(here, "bench", "event-loop-delay.ts"), "--json", "--root", root];
    for (const k of ["trials", "concurrency", "files"] as const) args.push(`--${k}`, String(values[k]));
    const r = spawnSync("npx", args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    if (r.status !== 0) throw new Error(`measuring ${root} failed (exit ${r.status})`);
    return JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}") as Figures;
  };
  const base = run(resolve(values.baseline));
  const mine = run(here);
  console.log(
    `${values.trials} trials at -n ${values.concurrency}, heatwave-audit, an agent leaving ${values.files} files`,
  );
  console.log(`  baseline: ${line(base)}`);
  console.log(`  this:     ${line(mine)}`);
  console.log(
    `  max delay ${(mine.max / base.max).toFixed(2)}×, p99 ${(mine.p99 / base.p99).toFixed(2)}×, wall ${(mine.wall / base.wall).toFixed(2)}× of the baseline`,
  );
} else {
  const f = await measure(resolve(values.root ?? here));
  console.log(values.json ? JSON.stringify(f) : line(f));
}
