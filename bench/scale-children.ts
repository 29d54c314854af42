/**
 * RES cost: seconds per approved child (p50, p95), how many proposals each took, and how the
 * public restore path grows with depth, and model tokens per approved child (0 for the seeded proposer).
 * Run: npx tsx bench/scale-children.ts [--depth 10] [--library full|basic] [--seed 7] [--keep DIR]
 *        [--children N] [--mode recursive|independent] [--concurrency 1,2] [TASK...]
 * (default task: the environment-data fixture test/fixtures/res/ledger-report). With --keep DIR the
 * lineages stay in DIR/<task> (e.g. to run `longhaul task check` on the children afterwards).
 * Beside each task's figures: one oracle trial of the root itself, in the same run — the floor a
 * child's verification cannot go under, since it runs at least one such trial of the child.
 * With --concurrency 1,2 each task's lineage is built once per value (`scale -n`), one after the
 * other in this run, and the lineage's wall seconds per approved child are compared.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { runTrial } from "../src/runner/run-trial.js";
import { prepareTask } from "../src/runner/task-image.js";
import { getSandboxProvider } from "../src/sandbox/registry.js";
import { lineageTokens } from "../src/scale/lineage/render.js";
import { scaleTask } from "../src/scale/lineage/scale.js";
import type { LineageNode } from "../src/scale/lineage/store.js";
import { loadTask } from "../src/task/load.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Seconds of one oracle trial of the task itself (seed 1000, as the verifier's trials). */
async function rootTrialSeconds(taskDir: string, scratch: string): Promise<number> {
  const ready = await prepareTask(await loadTask(taskDir), join(scratch, "images"));
  if (!ready.ok) return Number.NaN;
  const t0 = performance.now();
  await runTrial({
    jobId: "bench",
    trialId: "root-oracle",
    trialDir: join(scratch, "root-trial"),
    task: ready.task,
    image: ready.image,
    agent: "oracle",
    agentOptions: {},
    model: null,
    attempt: 1,
    seed: 1000,
    provider: getSandboxProvider("bwrap"),
    timeoutMultiplier: 1,
    signal: new AbortController().signal,
  });
  return (performance.now() - t0) / 1000;
}

function restoreSteps(n: LineageNode): number | null {
  // A program task's restore path is its whole input channel, every level's steps.
  if (n.channel !== undefined) return n.channel.steps.length;
  const detail = n.checks.find((c) => c.name === "restore")?.detail ?? "";
  const m = /(\d+) public step/.exec(detail);
  return m?.[1] === undefined ? null : Number(m[1]);
}

async function main(): Promise<void> {
  const depth = Number(arg("depth", "10"));
  const library = arg("library", "full") === "basic" ? "basic" : "full";
  const seed = Number(arg("seed", "7"));
  const keep = arg("keep", "");
  const children = Number(arg("children", "1"));
  const mode = arg("mode", "recursive") === "independent" ? "independent" : "recursive";
  const levels = arg("concurrency", "1")
    .split(",")
    .map((x) => Number(x));
  const skip = new Set(["--depth", "--library", "--seed", "--keep", "--children", "--mode", "--concurrency"]);
  const tasks = process.argv
    .slice(2)
    .filter((a, i, all) => !a.startsWith("--") && !skip.has(all[i - 1] ?? ""));
  if (tasks.length === 0) tasks.push("test/fixtures/res/ledger-report");
  const out = keep === "" ? mkdtempSync(join(tmpdir(), "longhaul-bench-scale-")) : keep;
  const all: LineageNode[] = [];
  const ratios: number[] = [];
  try {
    for (const task of tasks) {
      const scratch = mkdtempSync(join(tmpdir(), "longhaul-bench-root-"));
      const floor = await rootTrialSeconds(task, scratch).finally(() =>
        rmSync(scratch, { recursive: true, force: true }),
      );
      const walls: number[] = [];
      let own: number[] = [];
      for (const n of levels) {
        const t0 = performance.now();
        const r = await scaleTask({
          taskDir: task,
          outDir: join(out, levels.length > 1 ? `${basename(task)}-n${n}` : basename(task)),
          depth,
          children,
          concurrency: n,
          library,
          mode,
          seed,
          provider: getSandboxProvider("bwrap"),
          trials: true,
        });
        const wall = (performance.now() - t0) / 1000;
        const kids = r.nodes.filter((x) => x.status !== "root");
        const approved = kids.filter((x) => x.status === "approved");
        own = approved.map((x) => x.seconds).sort((a, b) => a - b);
        const ownV = approved.map((x) => x.verify_seconds ?? Number.NaN).sort((a, b) => a - b);
        walls.push(wall / Math.max(1, approved.length));
        console.log(
          `${basename(task)}${levels.length > 1 ? ` -n ${n}` : ""}: ${approved.length}/${kids.length} approved at depth ≤ ${depth} in ${wall.toFixed(1)} s ` +
            `(lineage wall per approved child ${(wall / Math.max(1, approved.length)).toFixed(2)} s; ` +
            `per child p50 ${percentile(own, 50).toFixed(2)} s, verifier p50 ${percentile(ownV, 50).toFixed(2)} s, proposals ${approved.reduce((s, x) => s + x.attempts, 0)}); ` +
            `restore steps by depth: ${approved.map((x) => `${x.depth}:${restoreSteps(x) ?? "?"}`).join(" ")}; ` +
            `the root's own oracle trial ${floor.toFixed(2)} s (child p50 / root trial ${(percentile(own, 50) / floor).toFixed(2)}×)`,
        );
        all.push(...kids);
      }
      if (levels.length > 1) {
        const first = walls[0] ?? Number.NaN;
        console.log(
          `${basename(task)}: lineage wall per approved child by -n: ${levels.map((n, i) => `${n}: ${(walls[i] ?? Number.NaN).toFixed(2)} s (${(first / (walls[i] ?? Number.NaN)).toFixed(2)}× of -n ${levels[0]})`).join(", ")}`,
        );
      }
      ratios.push(percentile(own, 50) / floor);
    }
    const approved = all.filter((n) => n.status === "approved");
    const secs = approved.map((n) => n.seconds).sort((a, b) => a - b);
    const vsecs = approved.map((n) => n.verify_seconds ?? Number.NaN).sort((a, b) => a - b);
    const proposals = approved.reduce((s, n) => s + n.attempts, 0);
    console.log(
      `approved children: ${approved.length} of ${all.length}; seconds per approved child p50 ${percentile(secs, 50).toFixed(2)} p95 ${percentile(secs, 95).toFixed(2)} ` +
        `(of which verifier p50 ${percentile(vsecs, 50).toFixed(2)} p95 ${percentile(vsecs, 95).toFixed(2)}); ` +
        `proposals per approved child ${(proposals / Math.max(1, approved.length)).toFixed(2)}; tokens per approved child ${lineageTokens(all)?.perApproved ?? 0}`,
    );
    const r = [...ratios].sort((a, b) => a - b);
    console.log(
      `per-task child p50 over the root's own oracle trial: median ${percentile(r, 50).toFixed(2)}× (one trial is the floor of a child's verification)`,
    );
    console.log(`target p50 <= 2 s per approved child: ${percentile(secs, 50) <= 2 ? "met" : "not met"}`);
  } finally {
    if (keep === "") rmSync(out, { recursive: true, force: true });
  }
}

await main();
