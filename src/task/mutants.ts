import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Where a task's known-wrong solutions live, relative to its solution/ folder. */
export const MUTANTS_DIR = "mutants/";

/** The fewest mutants a bundled task ships (docs/tasks.md#mutants). */
export const MIN_MUTANTS = 3;

/** A known-wrong solution: solution/mutants/NAME.sh, and what its first comment line says it gets wrong. */
export interface Mutant {
  name: string;
  wrong: string;
}

/**
 * The task's mutants, sorted by name: every solution/mutants/NAME.sh whose NAME the `mutant` agent
 * accepts. `wrong` is the script's first comment line after the `#!` line (empty when it has none).
 */
export function listMutants(solutionDir: string): Mutant[] {
  const dir = join(solutionDir, MUTANTS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sh") && MUTANT_NAME.test(f.slice(0, -3)))
    .sort()
    .map((f) => ({ name: f.slice(0, -3), wrong: firstComment(readFileSync(join(dir, f), "utf8")) }));
}

/** A mutant's name: a plain file name, so `--agent-opt name=…` can only pick a script in mutants/. */
export const MUTANT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function firstComment(script: string): string {
  for (const line of script.split("\n")) {
    const t = line.trim();
    if (t.startsWith("#!") || t === "") continue;
    return t.startsWith("#") ? t.replace(/^#+\s*/, "") : "";
  }
  return "";
}
