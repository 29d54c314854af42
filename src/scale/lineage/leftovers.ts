import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../core/errors.js";

// A child folder is renamed into place (approved, or `.discarded-ID`) before its node is recorded,
// and with a target agent it stays unrecorded for the agent's attempts. A kill then leaves a
// folder the lineage does not hold. Only such a folder may be removed by a resume: a marker file
// says the run put it there. Any other unrecorded folder may be a child the lineage file lost
// (an LLM-planned one cannot be grown again the same), so it is refused, never deleted.

const MARKER = ".unrecorded-";

/** The marker of child `id`: written before its folder is renamed into place, removed once its node is recorded. */
export function unrecordedMarker(outDir: string, id: string): string {
  return join(outDir, `${MARKER}${id}`);
}

/** Marks `id`'s folder as this run's own until its node is recorded. */
export function markUnrecorded(outDir: string, id: string): void {
  writeFileSync(unrecordedMarker(outDir, id), "");
}

export function unmarkUnrecorded(outDir: string, id: string): void {
  rmSync(unrecordedMarker(outDir, id), { force: true });
}

/** A folder an interrupted run left for child `id`. */
export interface Leftover {
  path: string;
  id: string;
}

/**
 * The folders in the way of the children this run grows (`ids`) that an interrupted run left
 * (marked): they are removed by clearLeftovers. Any other is refused before anything is changed.
 */
export function leftovers(outDir: string, ids: readonly string[], resume: boolean): Leftover[] {
  const found: Leftover[] = [];
  for (const id of ids) {
    const marked = resume && existsSync(unrecordedMarker(outDir, id));
    for (const name of [id, `.discarded-${id}`]) {
      const path = join(outDir, name);
      if (!existsSync(path)) continue;
      if (marked) {
        found.push({ path, id });
        continue;
      }
      throw new UserError(
        resume
          ? `${path}: a folder lineage.jsonl does not record, where this run would grow ${id}; it is kept and nothing is grown: if it is a child whose node lineage.jsonl lost, restore that line (or grow in a new --out); if it is not wanted, remove it and resume again`
          : `${path}: already there, where this run would grow ${id}; move it away, or choose another --out`,
      );
    }
  }
  return found;
}

/** Removes the folders leftovers() found, and every marker (a kill after a record leaves one behind). */
export function clearLeftovers(
  outDir: string,
  found: readonly Leftover[],
  log: (line: string) => void,
): void {
  for (const { path, id } of found) {
    rmSync(path, { recursive: true, force: true });
    log(`${path}: left by the interrupted run but not in the lineage; removed, ${id} is grown again`);
  }
  for (const name of readdirSync(outDir)) {
    if (name.startsWith(MARKER)) rmSync(join(outDir, name), { force: true });
  }
}
