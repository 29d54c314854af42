/**
 * Hidden-case generators over many seeds: every bundled task's tests/grade.py runs in
 * generate-only mode (no program under test) once per seed, and any seed whose generator fails
 * is listed. A failing seed would make that trial a grading error (lh.py exits 87), so the sweep
 * is how a task author finds such seeds before a user does.
 * Run: npx tsx bench/generator-sweep.ts [--seeds 2000] [--slow-seeds 300] [TASK...]
 * (--slow-seeds: for the tasks whose generation takes most of a second per seed).
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { sweepGenerators, sweepSeeds } from "../src/runner/generator-sweep.js";
import { bundledTasksDir } from "../src/runner/package-root.js";

const SLOW = new Set(["blob-count", "lander-pilot"]);
const args = process.argv.slice(2);
const flag = (name: string, def: number): number => {
  const i = args.indexOf(name);
  if (i < 0) return def;
  const v = Number(args.splice(i, 2)[1]);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} needs a positive integer`);
  return v;
};
const seeds = flag("--seeds", 2000);
const slowSeeds = flag("--slow-seeds", 300);
const dirs = args.length > 0 ? args : readdirSync(bundledTasksDir()).map((t) => join(bundledTasksDir(), t));
let failed = 0;
const t0 = Date.now();
for (const dir of dirs) {
  const name = basename(dir);
  const n = SLOW.has(name) ? slowSeeds : seeds;
  const t = Date.now();
  const results = await sweepGenerators(dir, sweepSeeds(n));
  const bad = results.filter((r) => !r.ok);
  failed += bad.length;
  const secs = (Date.now() - t) / 1000;
  console.log(
    `${name.padEnd(20)} ${String(results.length).padStart(5)} seeds  ${secs.toFixed(1).padStart(6)} s  ` +
      `${((secs * 1000) / results.length).toFixed(1).padStart(6)} ms/seed  ${bad.length} failed`,
  );
  for (const b of bad.slice(0, 5)) console.log(`  seed ${b.seed} (exit ${b.code}): ${b.error}`);
}
console.log(`${dirs.length} tasks, ${failed} failing seeds, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exitCode = failed > 0 ? 1 : 0;
