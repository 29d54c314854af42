import { existsSync, readdirSync, readFileSync, type Stats, statSync } from "node:fs";
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

/** The task's mutants, and the NAME.sh entries of mutants/ that are no script (each named with why). */
export interface MutantListing {
  mutants: Mutant[];
  broken: string[];
}

/**
 * The task's mutants, sorted by name: every solution/mutants/NAME.sh whose NAME the `mutant` agent
 * accepts. `wrong` is the script's first comment line after the `#!` line (empty when it has none).
 */
export function listMutants(solutionDir: string): Mutant[] {
  return readMutants(solutionDir).mutants;
}

/**
 * listMutants, telling also which NAME.sh entries cannot be a mutant's script (a folder, a link to
 * nothing): `task check` fails on them by name instead of stopping half-way through the check.
 */
export function readMutants(solutionDir: string): MutantListing {
  const dir = join(solutionDir, MUTANTS_DIR);
  const listing: MutantListing = { mutants: [], broken: [] };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return listing;
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".sh") && MUTANT_NAME.test(f.slice(0, -3)))
    .sort();
  for (const f of names) {
    const shown = `solution/${MUTANTS_DIR}${f}`;
    const st = statOrNull(join(dir, f));
    if (st === null) listing.broken.push(`${shown} is a link that leads to no file`);
    else if (st.isDirectory()) listing.broken.push(`${shown} is a folder, where a script is expected`);
    else if (!st.isFile()) listing.broken.push(`${shown} is not a regular file`);
    else
      listing.mutants.push({ name: f.slice(0, -3), wrong: firstComment(readFileSync(join(dir, f), "utf8")) });
  }
  return listing;
}

/** The entry's stat through links; null when it leads nowhere (missing target, a loop). */
function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
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
