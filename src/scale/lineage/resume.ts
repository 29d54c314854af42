import { appendFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { InputError, UserError } from "../../core/errors.js";
import { fsProblem } from "../../core/user-files.js";
import { loadParent, type ParentInfo } from "../child/build-child.js";
import { readResJson, type ScaleMode } from "../child/res-json.js";
import { CHILD } from "../layout.js";
import {
  LINEAGE_JSONL,
  type LineageNode,
  lineageLine,
  lineageNodes,
  readLineageBytes,
  requireRoot,
} from "./store.js";

/** Where one chain (or independent child) of an interrupted lineage goes on from. */
export interface ChainStart {
  /** The next depth to grow (1 for a chain with no child yet). */
  from: number;
  /** The approved child the next level grows from (its node); null: the root. */
  parent: LineageNode | null;
  /** Nothing left to grow: discarded, stopped by the target agent, or independent and decided. */
  done: boolean;
}

/** The nodes of a lineage to resume, and what resuming mends in lineage.jsonl (nothing is changed before). */
export interface ResumeRead {
  nodes: LineageNode[];
  /** Mends a last line cut short by a kill; called once every check of the resume has passed. */
  mend: (log: (line: string) => void) => void;
}

/**
 * The nodes of a lineage to resume. Only the bytes after the last newline may be cut short (a kill
 * during an append); every line before it must be a node, or nothing is changed. A cut line is
 * saved byte for byte beside the file (never over an earlier one) and cut off at its exact byte
 * offset; its node is decided again. A last line whole but for its newline gets the newline.
 */
export function readForResume(outDir: string): ResumeRead {
  const file = join(outDir, LINEAGE_JSONL);
  const bytes = readLineageBytes(file);
  const end = bytes.lastIndexOf(0x0a) + 1;
  const nodes = lineageNodes(file, bytes.subarray(0, end));
  const tail = bytes.subarray(end);
  let last: LineageNode | null | "torn" = null;
  if (tail.length > 0) {
    const line = bytes.subarray(0, end).filter((b) => b === 0x0a).length + 1;
    try {
      last = lineageLine(file, line, tail);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      last = "torn";
    }
  }
  if (last !== null && last !== "torn") nodes.push(last);
  requireRoot(file, nodes);
  const mend = (log: (line: string) => void): void => {
    if (tail.length === 0) return;
    if (last !== "torn") {
      appendFileSync(file, "\n");
      return;
    }
    const kept = saveTorn(file, tail);
    truncateSync(file, end);
    log(`${file}: its last line was cut short (kept in ${basename(kept)}); that node is grown again`);
  };
  return { nodes, mend };
}

/** `lineage.jsonl.torn`, else the first free `lineage.jsonl.torn.N`: an earlier cut line is never overwritten. */
function saveTorn(file: string, bytes: Uint8Array): string {
  for (let n = 0; ; n++) {
    const path = n === 0 ? `${file}.torn` : `${file}.torn.${n}`;
    try {
      writeFileSync(path, bytes, { flag: "wx" });
      return path;
    } catch (e) {
      if ((e as { code?: unknown }).code === "EEXIST") continue;
      const problem = fsProblem(e, path);
      if (problem !== null) throw new UserError(problem, { cause: e });
      throw e;
    }
  }
}

/** Where chain `branch` stands in the recorded nodes. */
export function chainStart(nodes: readonly LineageNode[], mode: ScaleMode, branch: number): ChainStart {
  const own = nodes
    .filter((n) => n.status !== "root" && n.branch === branch)
    .sort((a, b) => a.depth - b.depth);
  const last = own.at(-1);
  if (last === undefined) return { from: 1, parent: null, done: false };
  const stopped =
    mode === "independent" ||
    last.status === "discarded" ||
    (last.target !== undefined && !last.target.passed);
  return { from: last.depth + 1, parent: last, done: stopped };
}

/** The chains (or independent children) up to `children` that have more to grow, with where they stand. */
export function unfinished(
  nodes: readonly LineageNode[],
  mode: ScaleMode,
  depth: number,
  children: number,
): { branch: number; reached: number }[] {
  const open: { branch: number; reached: number }[] = [];
  for (let b = 1; b <= children; b++) {
    const s = chainStart(nodes, mode, b);
    if (!s.done && s.from <= depth) open.push({ branch: b, reached: s.from - 1 });
  }
  return open;
}

/** Every chain (or independent child) up to `children` has reached `depth` or stopped for good. */
export function lineageComplete(
  nodes: readonly LineageNode[],
  mode: ScaleMode,
  depth: number,
  children: number,
): boolean {
  return unfinished(nodes, mode, depth, children).length === 0;
}

/** The id of the child a chain (or independent child) grows at `depth`. */
export function childId(prefix: string, mode: ScaleMode, branch: number, depth: number): string {
  return mode === "independent" ? `${prefix}-i${branch}` : `${prefix}-b${branch}-d${depth}`;
}

/** The ids this run may grow: every level a chain has left up to `depth` (one per independent child). */
export function idsToGrow(
  nodes: readonly LineageNode[],
  mode: ScaleMode,
  depth: number,
  children: number,
  prefix: string,
): string[] {
  const ids: string[] = [];
  for (let b = 1; b <= children; b++) {
    const s = chainStart(nodes, mode, b);
    if (s.done) continue;
    if (mode === "independent") ids.push(childId(prefix, mode, b, 1));
    else for (let k = s.from; k <= depth; k++) ids.push(childId(prefix, mode, b, k));
  }
  return ids;
}

/**
 * A recorded child a chain goes on from; its folder must still be there, as it was approved, and
 * so must the parent and root its res.json names (relative paths: a moved or copied lineage
 * loses them, and the next child's verifier needs the root's solution).
 */
export async function approvedParent(outDir: string, node: LineageNode): Promise<ParentInfo> {
  const path = join(outDir, node.dir ?? node.id);
  if (!isFolder(path)) {
    throw new UserError(`${path}: an approved child of the lineage is missing, so its chain cannot go on`);
  }
  const res = readResJson(path);
  for (const [field, dir] of [
    ["parent.dir", res.parent.dir],
    ["root.dir", res.root.dir],
  ] as const) {
    const where = resolve(path, dir);
    if (isFolder(where)) continue;
    throw new InputError(
      join(path, CHILD.resJson),
      undefined,
      field,
      `field "${field}": ${dir} is ${where}, which is no task folder (was the lineage moved or copied from where it was grown?); resume it where it was grown, or put the task folder there`,
    );
  }
  const info = await loadParent(path);
  if (node.checksum !== undefined && info.checksum !== node.checksum) {
    throw new UserError(
      `${path}: the approved child has changed since it was approved (task checksum ${info.checksum.slice(0, 12)}…, recorded ${node.checksum.slice(0, 12)}…), so its chain cannot go on from it; restore it, or start a new --out`,
    );
  }
  return info;
}

export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // Not there, or a file where a folder of the path should be: no folder either way.
    return false;
  }
}
