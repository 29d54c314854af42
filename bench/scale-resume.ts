/**
 * What an interrupted lineage costs with `scale --resume`: each task's lineage is built once in
 * one go and once stopped (as by Ctrl-C) a second into verifying level --stop-at, then resumed,
 * in the same run. Prints the wall seconds of each, the work lost to the stop, and whether the
 * resumed lineage's nodes and child folders equal the uninterrupted one's.
 * Run: npx tsx bench/scale-resume.ts [--depth 10] [--stop-at 5] [--seed 7] [TASK...]
 * (default task: tasks/loan-schedule).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { getSandboxProvider } from "../src/sandbox/registry.js";
import { type ScaleOptions, scaleTask } from "../src/scale/lineage/scale.js";
import type { LineageNode } from "../src/scale/lineage/store.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/** One digest over a folder's files (names and bytes). */
function folderDigest(dir: string): string {
  const h = createHash("sha256");
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, `${rel}${e.name}/`);
      else h.update(`${rel}${e.name}\0`).update(readFileSync(p));
    }
  };
  walk(dir, "");
  return h.digest("hex");
}

function decided(out: string, nodes: readonly LineageNode[]): string {
  return JSON.stringify(
    nodes.map((n) => [
      n.id,
      n.status,
      n.plan,
      n.env_digest,
      n.checks,
      n.status === "approved" && n.dir !== null ? folderDigest(join(out, n.dir)) : null,
    ]),
  );
}

async function main(): Promise<void> {
  const depth = Number(arg("depth", "10"));
  const stopAt = Number(arg("stop-at", "5"));
  const seed = Number(arg("seed", "7"));
  const skip = new Set(["--depth", "--stop-at", "--seed"]);
  const tasks = process.argv
    .slice(2)
    .filter((a, i, all) => !a.startsWith("--") && !skip.has(all[i - 1] ?? ""));
  if (tasks.length === 0) tasks.push("tasks/loan-schedule");
  const scratch = mkdtempSync(join(tmpdir(), "longhaul-bench-resume-"));
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  process.stdout.write(
    "task | depth | one go s | stopped at depth, s | resumed s | stopped + resumed s | lost s | same lineage\n",
  );
  try {
    for (const task of tasks) {
      const name = basename(task);
      const base = (outDir: string): ScaleOptions => ({
        taskDir: task,
        outDir,
        depth,
        children: 1,
        library: "full",
        mode: "recursive",
        seed,
        provider: getSandboxProvider("bwrap"),
        trials: true,
        log,
      });
      const one = join(scratch, `${name}-one`);
      let t0 = performance.now();
      const whole = await scaleTask(base(one));
      const oneGo = (performance.now() - t0) / 1000;

      const cut = join(scratch, `${name}-cut`);
      const controller = new AbortController();
      t0 = performance.now();
      const marker = `-b1-d${stopAt} attempt 1:`;
      await scaleTask({
        ...base(cut),
        signal: controller.signal,
        log: (line) => {
          log(line);
          // A second into the level's verification: the work a Ctrl-C there throws away.
          if (line.includes(marker)) setTimeout(() => controller.abort(new Error("SIGINT")), 1000);
        },
      }).catch((e: unknown) => {
        if (!controller.signal.aborted) throw e;
      });
      const first = (performance.now() - t0) / 1000;
      t0 = performance.now();
      const resumed = await scaleTask({ ...base(cut), resume: true });
      const second = (performance.now() - t0) / 1000;
      const same = decided(one, whole.nodes) === decided(cut, resumed.nodes);
      const total = first + second;
      process.stdout.write(
        `${name} | ${depth} | ${oneGo.toFixed(1)} | ${stopAt}, ${first.toFixed(1)} | ${second.toFixed(1)} (${resumed.grown} nodes) | ${total.toFixed(1)} | ${(total - oneGo).toFixed(1)} | ${same ? "yes" : "NO"}\n`,
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
