import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { errorMessage } from "../../core/errors.js";
import { loadParent, type ParentInfo } from "../child/build-child.js";
import { type ResJson, readResJson } from "../child/res-json.js";
import { readTaskFolder } from "../layout.js";
import { extractRequirements, type TaskRequirements } from "../requirements.js";
import { readTaskTreeOf, type TaskTree } from "../task-tree.js";
import { type Diagnostic, diag } from "./diagnostics.js";

/** A child folder as the verifier reads it: nothing here is trusted, all of it is checked. */
export interface ChildState {
  dir: string;
  res: ResJson;
  /** task.toml's bytes: it sets the verifier's environment, limits and network. */
  taskToml: Uint8Array;
  instruction: string;
  tests: Map<string, Uint8Array>;
  solution: Map<string, Uint8Array>;
  environment: Map<string, Uint8Array>;
  tree: TaskTree;
  requirements: TaskRequirements;
}

export type Loaded =
  | { ok: true; child: ChildState; parent: ParentInfo }
  | { ok: false; diagnostics: Diagnostic[] };

/** Reads a child and its frozen parent; what cannot be read becomes a diagnostic, not an exception. */
export async function loadForVerify(
  childDir: string,
  parentDir?: string,
  known?: ParentInfo,
): Promise<Loaded> {
  let res: ResJson;
  try {
    res = readResJson(childDir);
  } catch (e) {
    return { ok: false, diagnostics: [diag("res-invalid", null, errorMessage(e))] };
  }
  const pdir = parentDir ?? resolve(childDir, res.parent.dir);
  let parent: ParentInfo;
  try {
    // The parent `scale` read from disk when it approved it (its checksum included) is the same.
    parent = known !== undefined && resolve(known.dir) === resolve(pdir) ? known : await loadParent(pdir);
  } catch (e) {
    return { ok: false, diagnostics: [diag("lineage-mismatch", null, `parent ${pdir}: ${errorMessage(e)}`)] };
  }
  try {
    const child: ChildState = {
      dir: childDir,
      res,
      taskToml: readFileSync(join(childDir, "task.toml")),
      instruction: readFileSync(join(childDir, "instruction.md"), "utf8"),
      tests: readTaskFolder(childDir, "tests"),
      solution: readTaskFolder(childDir, "solution"),
      environment: readTaskFolder(childDir, "environment"),
      tree: readTaskTreeOf(childDir),
      requirements: extractRequirements(childDir),
    };
    return { ok: true, child, parent };
  } catch (e) {
    return { ok: false, diagnostics: [diag("res-invalid", null, `${childDir}: ${errorMessage(e)}`)] };
  }
}

/** Paths whose bytes differ between two file maps (missing on either side included), sorted. */
export function changedPaths(
  actual: ReadonlyMap<string, Uint8Array>,
  expected: ReadonlyMap<string, Uint8Array>,
): string[] {
  const out: string[] = [];
  for (const p of new Set([...actual.keys(), ...expected.keys()])) {
    const a = actual.get(p);
    const b = expected.get(p);
    if (a === undefined || b === undefined || a.length !== b.length || !a.every((x, i) => x === b[i]))
      out.push(p);
  }
  return out.sort();
}

export function listShort(paths: readonly string[], max = 5): string {
  return paths.length <= max
    ? paths.join(", ")
    : `${paths.slice(0, max).join(", ")} and ${paths.length - max} more`;
}

/**
 * task.toml must be the one the child is rebuilt with (the parent's, renamed): an edit there
 * changes the verifier's environment, limits or network while every other check still passes.
 */
export function taskTomlDiff(child: ChildState, expected: ReadonlyMap<string, Uint8Array>): Diagnostic[] {
  const want = expected.get("task.toml");
  if (
    want === undefined ||
    changedPaths(new Map([["t", child.taskToml]]), new Map([["t", want]])).length === 0
  )
    return [];
  return [diag("non-reproducible", null, "task.toml is not the parent's (renamed for the child)")];
}
