// Writes test/support/test-seconds.json from vitest's cached file durations of the last run
// (node_modules/.vite/vitest/*/results.json), for the heavy-first sequencer of a fresh checkout.
// Usage: node scripts/update-test-seconds.mjs [RESULTS.json]   (run after a whole-suite run)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
let file = process.argv[2];
if (file === undefined) {
  const base = join(root, "node_modules/.vite/vitest");
  const dirs = readdirSync(base);
  if (dirs.length === 0) throw new Error(`${base}: no vitest results; run the suite first`);
  file = join(base, dirs[0], "results.json");
}
const { results } = JSON.parse(readFileSync(file, "utf8"));
const seconds = {};
// Keys are "project:file". A results file kept from before the suite had projects also holds
// ":file" entries of that older run: a file's entry under a named project wins over them.
const named = new Set(results.filter(([key]) => !key.startsWith(":")).map(([key]) => key.replace(/^[^:]*:/, "")));
for (const [key, r] of results) {
  const name = key.replace(/^[^:]*:/, "");
  if (key.startsWith(":") && named.has(name)) continue;
  // Files under 3 s change nothing in the order that matters; leave them to vitest's size order.
  const s = Math.round((r.duration ?? 0) / 1000);
  if (s >= 3) seconds[name] = s;
}
const sorted = Object.fromEntries(Object.entries(seconds).sort((a, b) => b[1] - a[1]));
writeFileSync(join(root, "test/support/test-seconds.json"), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files written to test/support/test-seconds.json`);
