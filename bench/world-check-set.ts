// World check over the whole task set: total time, per-task p50 and max, and the scripted team's
// rounds per second (its own plays, timed apart from the checks). The test suite plays only a
// fixed sample of the tasks (test/world/task-sample.ts); this is the full run.
// Run: npx tsx bench/world-check-set.ts [DIR|FILE...]   (default world-tasks/)
import { checkWorldTasks } from "../src/cli/commands/world-check.js";
import { createWorld } from "../src/world/build/world.js";
import { loadWorldTask, worldTaskFiles } from "../src/world/task/load.js";
import { playWorldTask } from "../src/world/trial/play.js";

const paths = process.argv.slice(2);
const files = worldTaskFiles(paths.length > 0 ? paths : ["world-tasks"]);
const w0 = performance.now();
const world = createWorld();
const loadMs = performance.now() - w0;

const times: number[] = [];
let failed = 0;
const c0 = performance.now();
for (const file of files) {
  const t0 = performance.now();
  const [line] = await checkWorldTasks([file], world);
  const ms = performance.now() - t0;
  times.push(ms);
  if (line === undefined || !line.ok) failed++;
  console.log(`${line?.ok ? "ok  " : "FAIL"} ${(ms / 1000).toFixed(2).padStart(6)} s  ${line?.id ?? file}`);
}
const checkMs = performance.now() - c0;

let rounds = 0;
let agentRounds = 0;
const s0 = performance.now();
for (const file of files) {
  const spec = loadWorldTask(file, world);
  const r = await playWorldTask(spec, world, { team: "scripted", seed: 1 });
  rounds += r.rounds;
  agentRounds += r.rounds * spec.team.length;
}
const playMs = performance.now() - s0;

const sorted = [...times].sort((a, b) => a - b);
const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
console.log(`\n${files.length} tasks, ${files.length - failed} pass, ${failed} fail`);
console.log(`world load           ${s(loadMs)}`);
console.log(`world check total    ${s(checkMs)}   per task p50 ${s(at(0.5))}   max ${s(sorted.at(-1) ?? 0)}`);
console.log(
  `scripted team        ${rounds} rounds (${agentRounds} agent turns) in ${s(playMs)}: ${(rounds / (playMs / 1000)).toFixed(0)} rounds/s, ${(agentRounds / (playMs / 1000)).toFixed(0)} agent turns/s`,
);
if (failed > 0) process.exitCode = 1;
