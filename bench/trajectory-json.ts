/**
 * The whole-trajectory JSON route (`/api/jobs/<job>/trials/<trial>/trajectory`) for a trajectory
 * near the 64 MB limit: 1.3 million small steps, as in bench/trajectory-page.ts. "before" serves it
 * as the route did before (parse the whole file, check it, `c.json`); "after" as it does now
 * (checked in batches through the chunk walker, then streamed). Each case is a server in a fresh
 * process, over HTTP, so that its peak RSS is the server's own; the cases alternate, side by side
 * in one run. "×1": one request (its peak RSS is taken after it), then a second one; "×4": four
 * concurrent requests. The client checks that every answer is the same document.
 *
 *   npx tsx bench/trajectory-json.ts [rounds=3] [steps=1300000]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { trajectoryJsonServer } from "../src/server/trajectory-json-route.js";
import { loadTrajectory } from "../src/server/trial-files.js";

const CASES = [
  ["before", 1],
  ["after", 1],
  ["before", 4],
  ["after", 4],
] as const;
type Way = (typeof CASES)[number][0];

interface Figures {
  first_ms: number;
  second_ms: number | null;
  peak_rss_mb: number;
  base_rss_mb: number;
  /** Longest the server could answer nothing else (its event loop's longest delay). */
  max_block_ms: number;
  bytes: number;
  sha: string;
}

/** The server of one case: answers the route one way, and `/stats` with its memory. */
function child(dir: string, way: Way): void {
  const base = process.memoryUsage().rss;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const app = new Hono();
  const trajectories = trajectoryJsonServer();
  app.get("/trajectory", async (c) => {
    if (way === "before") {
      const t = loadTrajectory(dir);
      if (t.state !== "ok") return c.json({ error: t.state }, 422);
      return c.json(t.value);
    }
    const t = await trajectories.load(dir);
    if (t.state !== "ok") return c.json({ error: t.state }, 422);
    const body = t.value.kind === "text" ? t.value.text : t.value.stream;
    return c.body(body, 200, { "content-type": "application/json" });
  });
  app.get("/reset", (c) => {
    delay.reset();
    return c.json({});
  });
  app.get("/stats", (c) =>
    c.json({
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
      base_rss_mb: base / 2 ** 20,
      max_block_ms: delay.max / 1e6,
    }),
  );
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  server.once("listening", () =>
    console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })),
  );
}

/** One request, its body read and hashed as it arrives (the client holds none of it). */
async function fetchOnce(port: number): Promise<{ bytes: number; sha: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/trajectory`);
  if (res.status !== 200 || res.body === null) throw new Error(`status ${res.status}`);
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const piece of res.body) {
    hash.update(piece);
    bytes += piece.length;
  }
  return { bytes, sha: hash.digest("hex") };
}

async function startChild(
  self: string,
  dir: string,
  way: Way,
): Promise<{ proc: ChildProcess; port: number }> {
  const proc = spawn(process.execPath, ["--import", "tsx", self, "--child", dir, way], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolvePort, reject) => {
    let out = "";
    proc.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith('{"port"'));
      if (line !== undefined) resolvePort((JSON.parse(line) as { port: number }).port);
    });
    proc.once("exit", (code) => reject(new Error(`${way}: the server exited (${code})`)));
  });
  return { proc, port };
}

async function runCase(self: string, dir: string, way: Way, concurrent: number): Promise<Figures> {
  const { proc, port } = await startChild(self, dir, way);
  try {
    await fetch(`http://127.0.0.1:${port}/reset`);
    const t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: concurrent }, () => fetchOnce(port)));
    const first = performance.now() - t0;
    const stats = (await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as {
      peak_rss_mb: number;
      base_rss_mb: number;
      max_block_ms: number;
    };
    let second: number | null = null;
    if (concurrent === 1) {
      const t1 = performance.now();
      answers.push(await fetchOnce(port));
      second = performance.now() - t1;
    }
    const shas = new Set(answers.map((a) => a.sha));
    if (shas.size !== 1) throw new Error(`${way}: answers differ`);
    return {
      first_ms: first,
      second_ms: second,
      ...stats,
      bytes: answers[0]?.bytes ?? 0,
      sha: [...shas][0] ?? "",
    };
  } finally {
    proc.kill();
  }
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

function range(xs: number[]): string {
  return `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const steps = Number(process.argv[3] ?? 1_300_000);
  const dir = mkdtempSync(join(tmpdir(), "longhaul-bench-trajectory-json-"));
  try {
    const bytes = writeTrajectory(dir, steps);
    console.log(`trajectory: ${steps.toLocaleString("en-US")} steps, ${(bytes / 2 ** 20).toFixed(1)} MB`);
    const self = fileURLToPath(import.meta.url);
    const runs = new Map<string, Figures[]>(CASES.map(([w, n]) => [`${w} ×${n}`, []]));
    const shas = new Set<string>();
    for (let r = 0; r < rounds; r++) {
      for (const [way, n] of CASES) {
        const f = await runCase(self, dir, way, n);
        shas.add(f.sha);
        runs.get(`${way} ×${n}`)?.push(f);
        console.log(
          `round ${r + 1} ${`${way} ×${n}`.padEnd(9)} all answered ${f.first_ms.toFixed(0).padStart(6)} ms  ${
            f.second_ms === null ? "" : `again ${f.second_ms.toFixed(0).padStart(5)} ms  `
          }blocked ≤ ${f.max_block_ms.toFixed(0).padStart(5)} ms  peak RSS ${f.peak_rss_mb.toFixed(0).padStart(4)} MB (at start ${f.base_rss_mb.toFixed(0)} MB)  ${(f.bytes / 2 ** 20).toFixed(1)} MB each`,
        );
      }
    }
    if (shas.size !== 1) throw new Error("before and after answered different documents");
    console.log(`\nevery answer the same document (sha256 ${[...shas][0]?.slice(0, 16)}…)`);
    console.log(`medians of ${rounds}  all answered (range)       again   longest block   peak RSS (range)`);
    for (const [name, fs] of runs) {
      const again = fs.map((f) => f.second_ms).filter((x): x is number => x !== null);
      const ms = fs.map((f) => f.first_ms);
      const rss = fs.map((f) => f.peak_rss_mb);
      const block = median(fs.map((f) => f.max_block_ms));
      console.log(
        `${name.padEnd(12)}${median(ms).toFixed(0).padStart(7)} ms (${range(ms)})${(again.length > 0 ? `${median(again).toFixed(0)} ms` : "-").padStart(12)}${block.toFixed(0).padStart(10)} ms${median(rss).toFixed(0).padStart(8)} MB (${range(rss)})`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") child(process.argv[3] as string, process.argv[4] as Way);
else await main();
