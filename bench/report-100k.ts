/**
 * 100,000 synthetic trials → summary + text table, timed cold (first call in a fresh process),
 * against the 3 s target. Two shapes: few large groups (intervals by normal approximation) and
 * many small ones (bootstrap under the draw budget). Run: npx tsx bench/report-100k.ts
 */
import { summarize } from "../src/analysis/summarize.js";
import { syntheticTrials } from "../src/analysis/synthetic-trials.js";
import { renderCsv } from "../src/report/render-csv.js";
import { renderHtml } from "../src/report/render-html.js";
import { renderJson } from "../src/report/render-json.js";
import { renderTable } from "../src/report/render-table.js";

const TARGET_MS = 3000;

let cpuMs = 0;
/** Wall time returned; CPU time (all threads, so GC helpers count) accumulated in cpuMs. */
function time<T>(fn: () => T): [T, number] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const v = fn();
  const c = process.cpuUsage(c0);
  cpuMs = (c.user + c.system) / 1000;
  return [v, performance.now() - t0];
}

const shapes = [
  { name: "8 models × 50 tasks × 250 attempts", models: 8, tasks: 50 },
  { name: "40 models × 50 tasks × 50 attempts", models: 40, tasks: 50 },
];

console.log(
  "shape                                  summary ms (cpu)  table ms  total ms  target ms  total/target  bootstrap B",
);
for (const shape of shapes) {
  const trials = syntheticTrials({ trials: 100_000, seed: 1, models: shape.models, tasks: shape.tasks });
  const [summary, tSummary] = time(() => summarize(trials, { seed: 7 }));
  const summaryCpu = cpuMs;
  const [, tTable] = time(() => renderTable(summary, { breakdowns: ["category"] }));
  const total = tSummary + tTable;
  console.log(
    `${shape.name.padEnd(38)} ${`${tSummary.toFixed(0)} (${summaryCpu.toFixed(0)})`.padStart(16)} ${tTable.toFixed(0).padStart(9)} ${total
      .toFixed(0)
      .padStart(9)} ${String(TARGET_MS).padStart(10)} ${(total / TARGET_MS).toFixed(2).padStart(13)} ${String(
      summary.bootstrapSamples,
    ).padStart(12)}`,
  );
  if (shape === shapes[0]) {
    const [json, tJson] = time(() => renderJson(summary));
    const [csv, tCsv] = time(() => renderCsv(summary));
    const [html, tHtml] = time(() => renderHtml(summary));
    console.log(
      `  other renderers: json ${tJson.toFixed(0)} ms (${(json.length / 1e6).toFixed(1)} MB), csv ${tCsv.toFixed(0)} ms ` +
        `(${(csv.length / 1e6).toFixed(2)} MB), html ${tHtml.toFixed(0)} ms (${(html.length / 1e6).toFixed(1)} MB)`,
    );
  }
}
