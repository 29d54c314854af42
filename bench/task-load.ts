/**
 * Task loading and reward scoring costs. Run: npx tsx bench/task-load.ts
 * Prints: dataset load time per task, checksum throughput next to a plain read of the same
 * bytes (the hashing overhead), and scoreTrial calls per second.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scoreTrial } from "../src/grading/reward.js";
import type { Rubric } from "../src/grading/types.js";
import { taskChecksum } from "../src/task/checksum.js";
import { loadTasks } from "../src/task/load.js";

function makeDataset(root: string, tasks: number, filesPerTask: number, bytesPerFile: number): void {
  const blob = Buffer.alloc(bytesPerFile, 7);
  for (let t = 0; t < tasks; t++) {
    const dir = join(root, `task-${String(t).padStart(3, "0")}`);
    mkdirSync(join(dir, "environment"), { recursive: true });
    mkdirSync(join(dir, "tests"), { recursive: true });
    mkdirSync(join(dir, "solution"), { recursive: true });
    writeFileSync(join(dir, "task.toml"), '[metadata]\ncategory = "bench"\n[agent]\ntimeout_sec = 60\n');
    writeFileSync(join(dir, "instruction.md"), "Do it.\n");
    writeFileSync(join(dir, "tests/test.sh"), "#!/bin/sh\n");
    writeFileSync(join(dir, "solution/solve.sh"), "#!/bin/sh\n");
    writeFileSync(
      join(dir, "tests/rubric.toml"),
      '[[subtask]]\nid = "a"\nweight = 1\nkind = "binary"\nvisibility = "public"\n',
    );
    for (let f = 0; f < filesPerTask; f++) writeFileSync(join(dir, "environment", `f${f}.bin`), blob);
  }
}

function readAll(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    n += statSync(p).isDirectory() ? readAll(p) : readFileSync(p).length;
  }
  return n;
}

const root = mkdtempSync(join(tmpdir(), "lh-bench-tasks-"));
try {
  const TASKS = 50;
  makeDataset(root, TASKS, 20, 4096);
  let t0 = performance.now();
  const tasks = await loadTasks([root]);
  const loadMs = performance.now() - t0;
  console.log(
    `loadTasks: ${tasks.length} tasks (20 files x 4 KiB each) in ${loadMs.toFixed(1)} ms = ${(loadMs / TASKS).toFixed(2)} ms/task`,
  );

  const big = join(root, "big");
  mkdirSync(big);
  for (let i = 0; i < 8; i++) writeFileSync(join(big, `chunk${i}.bin`), Buffer.alloc(16 * 1024 * 1024, i));
  readAll(big); // warm the page cache so both measurements read from memory
  t0 = performance.now();
  const bytes = readAll(big);
  const readMs = performance.now() - t0;
  t0 = performance.now();
  await taskChecksum(big);
  const sumMs = performance.now() - t0;
  const mb = bytes / 1024 / 1024;
  const raw = Buffer.alloc(bytes, 3);
  t0 = performance.now();
  createHash("sha256").update(raw).digest("hex");
  const rawMs = performance.now() - t0;
  console.log(
    `checksum: ${mb.toFixed(0)} MiB in ${sumMs.toFixed(0)} ms = ${(mb / (sumMs / 1000)).toFixed(0)} MiB/s; ` +
      `plain read ${(mb / (readMs / 1000)).toFixed(0)} MiB/s; sha256 of one in-memory buffer ` +
      `${(mb / (rawMs / 1000)).toFixed(0)} MiB/s; checksum / (read + hash) time ratio ${(sumMs / (readMs + rawMs)).toFixed(2)}x`,
  );

  const rubric: Rubric = {
    source: "tests/rubric.toml",
    subtasks: Array.from({ length: 20 }, (_, i) => ({
      id: `s${i}`,
      weight: i + 1,
      kind: "continuous" as const,
      visibility: "hidden" as const,
      description: "",
    })),
  };
  const rewardJson = JSON.stringify(Object.fromEntries(rubric.subtasks.map((s, i) => [s.id, i / 20])));
  const N = 50_000;
  t0 = performance.now();
  for (let i = 0; i < N; i++) scoreTrial({ rewardJson, rewardTxt: null, rubric });
  const scoreMs = performance.now() - t0;
  console.log(
    `scoreTrial (20 subtasks): ${((scoreMs * 1000) / N).toFixed(2)} µs/call, ${(N / (scoreMs / 1000)).toFixed(0)} calls/s`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
