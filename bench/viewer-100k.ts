/**
 * The viewer on a large job: a synthetic store of 100,000 trials (one transaction), served over
 * HTTP on loopback; each route is requested 20 times and the median is reported.
 *
 *   npx tsx bench/viewer-100k.ts [trials=100000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startViewer } from "../src/server/index.js";
import { buildSyntheticStore } from "./viewer-store.js";

const trials = Number(process.argv[2] ?? 100_000);
const REPEATS = 20;
const TARGET_MS = 200;
const JOB = "bench-100k";

function pct(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
}

const dir = mkdtempSync(join(tmpdir(), "longhaul-bench-viewer-"));
let t0 = performance.now();
await buildSyntheticStore(dir, JOB, trials);
const buildSec = (performance.now() - t0) / 1000;
console.log(`store: ${trials.toLocaleString("en-US")} trials indexed in ${buildSec.toFixed(1)} s`);

const viewer = await startViewer({ jobsDir: dir, port: 0 });
const routes: [string, string][] = [
  ["first page (API)", `api/jobs/${JOB}/trials`],
  ["filtered page (API): outcome + R range", `api/jobs/${JOB}/trials?outcome=completed&r_min=0.4&r_max=0.6`],
  ["filtered page (API): model + agent", `api/jobs/${JOB}/trials?model=m:b&agent=tools`],
  ["first page (HTML, with filter choices)", `jobs/${JOB}`],
  ["filtered page (HTML)", `jobs/${JOB}?outcome=completed&r_min=0.4&r_max=0.6`],
  ["sorted by R, best first (API)", `api/jobs/${JOB}/trials?sort=reward&order=desc`],
  ["last page, offset 99,950 (API)", `api/jobs/${JOB}/trials?offset=${Math.max(0, trials - 50)}`],
  ["job list (API)", "api/jobs"],
  ["one trial (HTML)", `jobs/${JOB}/trials/task-000__terminus__m_a__a0`],
];

// Warm the server up (JIT, SQLite page cache) on a route that is not measured.
for (let i = 0; i < 20; i++) await (await fetch(`${viewer.url}api/jobs/${JOB}/trials?task=task-001`)).text();

console.log(`\nroute${" ".repeat(38)}first ms   p50 ms   p95 ms   p50 / ${TARGET_MS} ms`);
try {
  for (const [name, path] of routes) {
    const times: number[] = [];
    let first = 0;
    for (let i = 0; i <= REPEATS; i++) {
      t0 = performance.now();
      const res = await fetch(viewer.url + path);
      const body = await res.text();
      const ms = performance.now() - t0;
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${body.slice(0, 200)}`);
      if (i === 0) first = ms;
      else times.push(ms);
    }
    const p50 = pct(times, 0.5);
    console.log(
      `${name.padEnd(43)}${first.toFixed(1).padStart(8)}${p50.toFixed(1).padStart(9)}${pct(times, 0.95)
        .toFixed(1)
        .padStart(9)}${(p50 / TARGET_MS).toFixed(2).padStart(12)}×`,
    );
  }
} finally {
  await viewer.close();
  rmSync(dir, { recursive: true, force: true });
}
