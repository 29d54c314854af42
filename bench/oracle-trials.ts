/**
 * One real oracle trial of each task folder in turn, N rounds, after one warm-up trial each; prints
 * each folder's median wall seconds and its grader command's (tests/test.sh) median. Folders are
 * interleaved round by round, so a root and its children, or one child carrying two channel kits
 * (a copy with the other kit in tests/res/ and solution/res/), are compared under the same load.
 * Trials run as a RES verifier's check (d) runs its child's trial (bwrap, stress seed 1000).
 *
 *   npx tsx bench/oracle-trials.ts [--rounds 4] TASK_DIR...
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { getSandboxProvider } from "../src/sandbox/registry.js";
import { prepare, type Ready, trial } from "../src/scale/verify/oracle-trials.js";

const args = process.argv.slice(2);
const at = args.indexOf("--rounds");
const rounds = at >= 0 ? Number(args.splice(at, 2)[1]) : 4;
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds needs a positive integer");
const dirs = args.map((d) => resolve(d));
if (dirs.length === 0) throw new Error("usage: npx tsx bench/oracle-trials.ts [--rounds N] TASK_DIR...");

const provider = getSandboxProvider("bwrap");
const scratch = mkdtempSync(join(tmpdir(), "longhaul-oracle-trials-"));
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? Number.NaN) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
try {
  const ready: Ready[] = [];
  for (const d of dirs) {
    const r = await prepare(d, scratch, "bench");
    if (typeof r === "string") throw new Error(`${d}: ${r}`);
    ready.push(r);
  }
  let k = 0;
  for (const r of ready) await trial({ provider }, r, join(scratch, `warm-${k++}`), "bench");
  const wall: number[][] = dirs.map(() => []);
  const grader: number[][] = dirs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, r] of ready.entries()) {
      const t0 = performance.now();
      const x = await trial({ provider }, r, join(scratch, `t-${k++}`), "bench");
      wall[i]?.push((performance.now() - t0) / 1000);
      grader[i]?.push(x.timing.verifier_command_sec ?? Number.NaN);
      if (x.reward !== 1) console.error(`${dirs[i]}: oracle R = ${x.reward} in round ${round + 1}`);
    }
    console.error(`round ${round + 1} of ${rounds} done`);
  }
  console.log(`oracle trials, ${rounds} rounds, medians in seconds`);
  console.log("task folder | trial wall | grader command");
  for (const [i, d] of dirs.entries()) {
    console.log(`${d} | ${median(wall[i] ?? []).toFixed(3)} | ${median(grader[i] ?? []).toFixed(3)}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
