/**
 * The trajectory part of a trial page for a trajectory near the 64 MB limit: 1.3 million small
 * steps (about 62 MB). "whole" parses and checks the whole file, as the page did before (and the
 * JSON route, whose own figures are in bench/trajectory-json.ts); "edges" reads it as the page does now, parsing only the first
 * and last 100 steps. Each case runs in a fresh process, so that its peak RSS is its own, and the
 * cases alternate, side by side in one run. Each process renders the section twice: a first view
 * (cold; its peak RSS is reported) and a second one. "window" is the page with `?steps_from=`,
 * 200 steps from the middle of the file.
 *
 *   npx tsx bench/trajectory-page.ts [rounds=3] [steps=1300000]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { edgesOfWhole, loadTrajectoryEdges } from "../src/server/trajectory-file.js";
import {
  TRAJECTORY_EDGE_STEPS,
  TRAJECTORY_WINDOW_STEPS,
  trajectorySection,
} from "../src/server/trajectory-section.js";
import { loadTrajectory } from "../src/server/trial-files.js";

const CASES = ["whole", "edges", "window"] as const;
type Case = (typeof CASES)[number];
/** Where the "window" case starts (0-based): the middle of the default trajectory. */
const WINDOW_FROM = 650_000;
/** The trial page's target: a view under 200 ms, as in bench/viewer-100k.ts. */
const TARGET_MS = 200;

interface Figures {
  first_ms: number;
  second_ms: number;
  base_rss_mb: number;
  peak_rss_mb: number;
  html_bytes: number;
}

function render(dir: string, which: Case): string {
  if (which === "edges") return trajectorySection(loadTrajectoryEdges(dir, TRAJECTORY_EDGE_STEPS), "/json");
  if (which === "window") {
    // `?steps_from=` in the middle of the file.
    const t = loadTrajectoryEdges(dir, TRAJECTORY_WINDOW_STEPS, WINDOW_FROM);
    return trajectorySection(t, "/json");
  }
  const t = loadTrajectory(dir);
  const bytes = statSync(join(dir, "agent", "trajectory.json")).size;
  return trajectorySection(
    t.state === "ok" ? { state: "ok", value: edgesOfWhole(t.value, TRAJECTORY_EDGE_STEPS, bytes) } : t,
    "/json",
  );
}

/** One case in this process: prints its figures as JSON. */
function child(dir: string, which: Case): void {
  const base = process.memoryUsage().rss;
  let t0 = performance.now();
  const html = render(dir, which);
  const first = performance.now() - t0;
  // Peak of the first view alone: a second one may allocate before the first's buffers are freed.
  const peak = process.resourceUsage().maxRSS;
  t0 = performance.now();
  render(dir, which);
  const second = performance.now() - t0;
  const note = which === "window" ? 'id="trajectory-window"' : 'id="trajectory-cut"';
  if (!html.includes(note)) throw new Error(`${which}: no ${note} in the page`);
  const figures: Figures = {
    first_ms: first,
    second_ms: second,
    base_rss_mb: base / 2 ** 20,
    peak_rss_mb: peak / 1024,
    html_bytes: Buffer.byteLength(html),
  };
  console.log(JSON.stringify(figures));
}

function writeTrajectory(dir: string, steps: number): number {
  mkdirSync(join(dir, "agent"), { recursive: true });
  const parts: string[] = [];
  for (let i = 1; i <= steps; i++) parts.push(`{"step_id":${i},"source":"agent","message":"ok"}`);
  const path = join(dir, "agent", "trajectory.json");
  writeFileSync(path, `{"agent":{"name":"bench","version":"1"},"steps":[${parts.join(",")}]}`);
  return statSync(path).size;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

if (process.argv[2] === "--child") {
  child(process.argv[3] as string, process.argv[4] as Case);
} else {
  const rounds = Number(process.argv[2] ?? 3);
  const steps = Number(process.argv[3] ?? 1_300_000);
  const dir = mkdtempSync(join(tmpdir(), "longhaul-bench-trajectory-"));
  try {
    const bytes = writeTrajectory(dir, steps);
    console.log(`trajectory: ${steps.toLocaleString("en-US")} steps, ${(bytes / 2 ** 20).toFixed(1)} MB`);
    const runs: Record<Case, Figures[]> = { whole: [], edges: [], window: [] };
    const self = fileURLToPath(import.meta.url);
    for (let r = 0; r < rounds; r++) {
      for (const which of CASES) {
        const res = spawnSync(process.execPath, ["--import", "tsx", self, "--child", dir, which], {
          encoding: "utf8",
        });
        if (res.status !== 0) throw new Error(`${which}: ${res.stderr}`);
        const f = JSON.parse(res.stdout.trim().split("\n").at(-1) ?? "") as Figures;
        runs[which].push(f);
        console.log(
          `round ${r + 1} ${which.padEnd(6)} first ${f.first_ms.toFixed(0).padStart(5)} ms  second ${f.second_ms
            .toFixed(0)
            .padStart(
              5,
            )} ms  peak RSS ${f.peak_rss_mb.toFixed(0).padStart(4)} MB (at start ${f.base_rss_mb.toFixed(0)} MB)  html ${(f.html_bytes / 1024).toFixed(0)} KB`,
        );
      }
    }
    console.log(`\nmedians of ${rounds}     first view   second view   peak RSS   first / ${TARGET_MS} ms`);
    for (const which of CASES) {
      const m = (k: keyof Figures) => median(runs[which].map((f) => f[k]));
      console.log(
        `${which.padEnd(20)}${m("first_ms").toFixed(0).padStart(9)} ms${m("second_ms").toFixed(0).padStart(11)} ms${m(
          "peak_rss_mb",
        )
          .toFixed(0)
          .padStart(8)} MB${(m("first_ms") / TARGET_MS).toFixed(2).padStart(12)}×`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
