import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readTree } from "./file-tree.js";

/**
 * Where a RES child keeps what it adds to a task folder. The parent's scripts stay beside the
 * wrappers that replace them (same folder), so a script that finds its helpers through
 * `$(dirname "$0")` or `${BASH_SOURCE[0]}` still finds them.
 */
export const CHILD = {
  resJson: "res.json",
  /** Original protected environment files (those the checks read), put back before the original verifier runs. */
  snapshotDir: "res/snapshot",
  parentTest: "res-parent-test.sh",
  parentSolve: "res-parent-solve.sh",
  /** The root's partial.sh (task check's honest partial), run after the same restore steps. */
  parentPartial: "res-parent-partial.sh",
} as const;

/** Names RES adds inside tests/ and solution/; a root task already using them cannot be scaled. */
export const RESERVED_TEST_NAMES = ["res", CHILD.parentTest] as const;
export const RESERVED_SOLUTION_NAMES = [CHILD.parentSolve, CHILD.parentPartial] as const;

export function sha256Hex(...parts: (string | Uint8Array)[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex");
}

/** Digest of a whole tree of files: sorted paths with their bytes' sha256. */
export function filesDigest(files: ReadonlyMap<string, Uint8Array>): string {
  const rows = [...files].map(([p, b]) => `${JSON.stringify(p)} ${sha256Hex(b)}`).sort();
  return sha256Hex(rows.join("\n"));
}

/** A folder's files, or an empty map when it does not exist. */
export function readFolder(dir: string): Map<string, Uint8Array> {
  return existsSync(dir) ? readTree(dir) : new Map();
}

export function readTaskFolder(
  taskDir: string,
  sub: "tests" | "solution" | "environment",
): Map<string, Uint8Array> {
  return readFolder(join(taskDir, sub));
}

/** Quotes a string for POSIX sh. */
export function shq(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

export function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
