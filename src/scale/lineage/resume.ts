import { appendFileSync, existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScaleMode } from "../child/res-json.js";
import { LINEAGE_JSONL, type LineageNode, LineageNodeSchema, readLineage } from "./store.js";

/** Where one chain (or independent child) of an interrupted lineage goes on from. */
export interface ChainStart {
  /** The next depth to grow (1 for a chain with no child yet). */
  from: number;
  /** The approved child the next level grows from (its node); null: the root. */
  parent: LineageNode | null;
  /** Nothing left to grow: discarded, stopped by the target agent, or independent and decided. */
  done: boolean;
}

/**
 * The nodes of a lineage to resume. A last line cut short by a kill (no newline, not a node) is
 * moved aside to `lineage.jsonl.torn` rather than deleted; its node is decided again.
 */
export function readForResume(outDir: string, log: (line: string) => void): LineageNode[] {
  const file = join(outDir, LINEAGE_JSONL);
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (text !== "" && !text.endsWith("\n")) {
    const cut = text.lastIndexOf("\n") + 1;
    const tail = text.slice(cut);
    if (isNode(tail)) {
      appendFileSync(file, "\n");
    } else {
      writeFileSync(`${file}.torn`, tail);
      truncateSync(file, Buffer.byteLength(text.slice(0, cut)));
      log(`${file}: its last line was cut short (kept in ${LINEAGE_JSONL}.torn); that node is grown again`);
    }
  }
  return readLineage(outDir);
}

function isNode(line: string): boolean {
  try {
    return LineageNodeSchema.safeParse(JSON.parse(line)).success;
  } catch {
    return false;
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

/**
 * What an interrupted run may have left of a child it had not recorded: its folder, renamed into
 * place just before the kill (a target agent may have been attempting it), and a discarded copy.
 * Neither is in the lineage, so both are removed and the child grown again. The target agent's
 * finished attempts are kept: they count again only if the regrown child is byte for byte the same.
 */
export function clearUnrecorded(outDir: string, id: string, log: (line: string) => void): void {
  for (const name of [id, `.discarded-${id}`]) {
    const path = join(outDir, name);
    if (!existsSync(path)) continue;
    rmSync(path, { recursive: true, force: true });
    log(`${path}: left by the interrupted run but not in the lineage; removed, ${id} is grown again`);
  }
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
