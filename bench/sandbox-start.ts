/**
 * Sandbox start-to-exit for `true`: one bwrap exec (cgroup join, namespaces, binds, launcher)
 * against a plain spawn of `true`, interleaved in the same run so both see the same load.
 * Run: npx tsx bench/sandbox-start.ts [runs]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bwrapArgs } from "../src/sandbox/bwrap-args.js";
import { BwrapProvider } from "../src/sandbox/bwrap-provider.js";
import type { BwrapSandbox } from "../src/sandbox/bwrap-sandbox.js";

const runs = Number(process.argv[2] ?? 200);

function spawnToExit(argv: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = argv;
    const child = spawn(cmd ?? "true", args, { stdio: ["pipe", "pipe", "pipe"] });
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "longhaul-bench-"));
  const provider = new BwrapProvider();
  await provider.check();
  const sandbox = (await provider.create({
    environmentDir: null,
    workdir: "/app",
    memoryMb: 1024,
    cpus: 2,
    pidsMax: 4096,
    allowInternet: false,
    stateDir: join(root, "state"),
  })) as BwrapSandbox;
  try {
    // The same bwrap flags without the cgroup wrapper and launcher, to show what those add.
    const full = bwrapArgs(provider.bwrapBinary(), { binds: [], allowInternet: false }, [], "/", ["true"]);
    const raw = [...full.slice(0, full.indexOf("--") + 1), "/usr/bin/true"];
    const bwrap: number[] = [];
    const bare: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < 10; i++) {
      await sandbox.exec(["true"]);
      await spawnToExit(raw);
      await spawnToExit(["true"]);
    }
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const r = await sandbox.exec(["true"]);
      bwrap.push(performance.now() - t);
      if (r.exitCode !== 0) throw new Error(`sandboxed true exited ${r.exitCode}: ${r.stderr}`);
      t = performance.now();
      await spawnToExit(raw);
      bare.push(performance.now() - t);
      t = performance.now();
      await spawnToExit(["true"]);
      plain.push(performance.now() - t);
    }
    for (const xs of [bwrap, bare, plain]) xs.sort((a, b) => a - b);
    const row = (name: string, xs: number[]): string =>
      `${name.padEnd(22)} p50 ${percentile(xs, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(xs, 95).toFixed(1).padStart(6)} ms`;
    console.log(`sandbox start-to-exit, ${runs} runs each (limits: ${sandbox.limitMode})`);
    console.log(row("sandbox.exec true", bwrap));
    console.log(row("bare bwrap true", bare));
    console.log(row("plain spawn true", plain));
    console.log(
      `ratio exec/plain       p50 ${(percentile(bwrap, 50) / percentile(plain, 50)).toFixed(2)}x   p95 ${(percentile(bwrap, 95) / percentile(plain, 95)).toFixed(2)}x`,
    );
    console.log(`target p50 <= 30 ms: ${percentile(bwrap, 50) <= 30 ? "met" : "NOT met"}`);
  } finally {
    await sandbox.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
