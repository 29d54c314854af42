import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds each file took in a whole-suite run on the 2-core machine with both workers busy
 * (test/support/test-seconds.json, written by `node scripts/update-test-seconds.mjs` after such a
 * run). Used only for a file vitest has no cached duration of (a fresh checkout, a new file): its
 * own fallback orders such files by size, which would start a short file that runs real sandboxes
 * for minutes last, and leave one worker alone at the end.
 */
function loadSeconds(): Readonly<Record<string, number>> {
  const file = join(import.meta.dirname, "test-seconds.json");
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file}: expected an object of file → seconds`);
  }
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (typeof v !== "number") throw new Error(`${file}: "${k}" is not a number of seconds`);
    out[k] = v;
  }
  return out;
}

const HEAVY_SECONDS = loadSeconds();

/** Longest first, so that the two workers finish together: cached durations, else test-seconds.json. */
export class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const key = (f: TestSpecification): string => relative(this.ctx.config.root, f.moduleId);
    const seconds = (f: TestSpecification): number => {
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${key(f)}`);
      return cached === undefined ? (HEAVY_SECONDS[key(f)] ?? 0) : cached.duration / 1000;
    };
    const size = (f: TestSpecification): number =>
      this.ctx.cache.getFileStats(`${f.project.name}:${key(f)}`)?.size ?? 0;
    return [...files].sort((a, b) => seconds(b) - seconds(a) || size(b) - size(a));
  }
}
