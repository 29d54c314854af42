/**
 * Fuzzes every input format longhaul reads. Run: npx tsx bench/fuzz-inputs.ts [cases] [seed]
 * (default 10,000 cases per format, seed 1). Prints one line per format (cases, parsed, refused
 * with a user error, failures, time) and each distinct failure; exits 1 when any case fails the
 * property in test/fuzz/targets.ts.
 */
import fc from "fast-check";
import { checkWire, MODEL_SEEDS, wireCases } from "../test/fuzz/model-wire.js";
import { FILE_TARGETS, inputsFor, tally } from "../test/fuzz/targets.js";

const cases = Number(process.argv[2] ?? 10_000);
const seed = Number(process.argv[3] ?? 1);
let failed = 0;

function report(name: string, n: number, ok: number, failures: Map<string, string>, ms: number): void {
  const bad = [...failures.values()].length;
  process.stdout.write(
    `${name.padEnd(16)} ${String(n).padStart(6)} cases  ${String(ok).padStart(6)} ok  ${String(bad).padStart(4)} distinct failures  ${(ms / 1000).toFixed(1)} s\n`,
  );
  for (const [problem, input] of failures) {
    process.stdout.write(`  FAIL ${problem}\n    input: ${JSON.stringify(input).slice(0, 300)}\n`);
  }
  failed += bad;
}

for (const target of FILE_TARGETS) {
  const t0 = performance.now();
  const failures = new Map<string, string>();
  let ok = 0;
  const inputs = [
    ...target.seeds,
    ...fc.sample(inputsFor(target), { numRuns: cases - target.seeds.length, seed }),
  ];
  for (const input of inputs) {
    const problem = await target.check(input);
    if (problem === undefined) ok++;
    // Failures are grouped by their text with numbers and quoted values blanked, so one bug is one line.
    else failures.set(problem.replace(/"[^"]*"|\d+/g, "…").slice(0, 160), input);
  }
  report(target.name, inputs.length, ok, failures, performance.now() - t0);
}

{
  const t0 = performance.now();
  const failures = new Map<string, string>();
  let ok = 0;
  const inputs = [...MODEL_SEEDS, ...fc.sample(wireCases(), { numRuns: cases - MODEL_SEEDS.length, seed })];
  for (const c of inputs) {
    const problem = await checkWire(c);
    if (problem === undefined) ok++;
    else failures.set(problem.replace(/"[^"]*"|\d+/g, "…").slice(0, 160), JSON.stringify(c));
  }
  report("model responses", inputs.length, ok, failures, performance.now() - t0);
}

for (const [file, t] of tally) process.stdout.write(`${file}: ${t.parsed} parsed, ${t.refused} refused\n`);
process.exitCode = failed > 0 ? 1 : 0;
