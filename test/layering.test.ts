import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { LAYERS, layerOf } from "../src/core/layers.js";

// Every relative import (static, type-only, re-export, dynamic) of every non-test .ts file under
// src/, reduced to top-level folder edges and checked against src/core/layers.ts.

const SRC = resolve(import.meta.dirname, "..", "src");
/** Files directly in src/ are entry points: above every layer but the front ends, which may use them. */
const ROOT = "(src)";

interface Edge {
  from: string;
  to: string;
  where: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

function folderOf(file: string, root = SRC): string {
  const parts = relative(root, file).split(sep);
  return parts.length > 1 ? (parts[0] ?? ROOT) : ROOT;
}

/** Edges between the folders directly inside `root`; imports leaving `root` are left out. */
function innerEdges(root: string): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(root)) {
    for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = resolve(dirname(file), fileName);
      if (relative(root, target).startsWith("..")) continue;
      const from = folderOf(file, root);
      const to = folderOf(target, root);
      if (from !== to) edges.push({ from, to, where: `${relative(root, file)} imports ${fileName}` });
    }
  }
  return edges;
}

/**
 * One shortest loop through each cycle, each hop with an import that makes it, so a failure says
 * which file to change: "a -> b (a/x.ts imports ../b/y.js) -> a (...)".
 */
function explainCycles(edges: readonly Edge[]): string[] {
  return folderCycles(edges).map((group) => {
    const start = group[0] ?? "";
    const inside = edges.filter((e) => group.includes(e.from) && group.includes(e.to));
    // Breadth-first from start until an edge leads back to it.
    const via = new Map<string, Edge>();
    const queue = [start];
    let closing: Edge | undefined;
    while (closing === undefined && queue.length > 0) {
      const at = queue.shift() ?? "";
      for (const e of inside.filter((x) => x.from === at)) {
        if (e.to === start) {
          closing = e;
          break;
        }
        if (!via.has(e.to)) {
          via.set(e.to, e);
          queue.push(e.to);
        }
      }
    }
    const hops: Edge[] = [];
    for (let e = closing; e !== undefined; e = e.from === start ? undefined : via.get(e.from))
      hops.unshift(e);
    return `cycle ${start}${hops.map((e) => ` -> ${e.to} (${e.where})`).join("")}`;
  });
}

function folderEdges(files: readonly string[]): Edge[] {
  const edges: Edge[] = [];
  for (const file of files) {
    const imports = ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles;
    for (const { fileName } of imports) {
      if (!fileName.startsWith(".")) continue;
      const target = resolve(dirname(file), fileName);
      const from = folderOf(file);
      const to = relative(SRC, target).startsWith("..") ? "(outside src)" : folderOf(target);
      if (from !== to) edges.push({ from, to, where: `${relative(SRC, file)} imports ${fileName}` });
    }
  }
  return edges;
}

/** Edges that go up a layer, into an entry point, out of src/, or from/to an unplaced folder. */
function layerViolations(edges: readonly Edge[]): string[] {
  const problems: string[] = [];
  for (const edge of edges) {
    if (edge.from === ROOT) continue;
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (from === undefined)
      problems.push(`${edge.from}/ is not placed in src/core/layers.ts (${edge.where})`);
    else if (edge.to === ROOT && from === LAYERS.length - 1)
      continue; // front ends use the entry points
    else if (to === undefined) problems.push(`${edge.to} is not a layered folder (${edge.where})`);
    else if (to > from)
      problems.push(`upward import ${edge.from} (layer ${from}) -> ${edge.to} (layer ${to}): ${edge.where}`);
  }
  return problems;
}

/** Strongly connected groups of more than one folder (Tarjan). */
function folderCycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)?.add(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (;;) {
      const w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      group.push(w);
      if (w === v) break;
    }
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe("layering of src/", () => {
  const edges = folderEdges(sourceFiles(SRC));

  it("reads imports of every kind from the tree", () => {
    // A parser that saw nothing would pass every check below.
    const kinds = new Set(edges.map((e) => `${e.from}->${e.to}`));
    expect(kinds).toContain("cli->runner");
    expect(kinds).toContain("runner->sandbox");
    expect(edges.length).toBeGreaterThan(100);
  });

  it("places every top-level folder in exactly one layer", () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => layerOf(f) === undefined)).toEqual([]);
    const placed = LAYERS.flat();
    expect(new Set(placed).size).toBe(placed.length);
  });

  it("has no upward import", () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  it("has no cycle between folders", () => {
    expect(folderCycles(edges)).toEqual([]);
  });

  it("the checks catch an upward import and a same-layer cycle", () => {
    const bad: Edge[] = [
      { from: "core", to: "runner", where: "x" },
      { from: "task", to: "grading", where: "y" },
      { from: "grading", to: "task", where: "z" },
    ];
    expect(layerViolations(bad)).toHaveLength(1);
    expect(folderCycles(bad)).toEqual([["grading", "task"]]);
  });
});

describe("layering inside src/world", () => {
  const WORLD = join(SRC, "world");
  const edges = innerEdges(WORLD);

  it("reads the folder graph", () => {
    const kinds = new Set(edges.map((e) => `${e.from}->${e.to}`));
    // The engine steps through the tool registry and the tools build on the state layer.
    expect(kinds).toContain("engine->tools");
    expect(kinds).toContain("tools->state");
    expect(kinds).toContain("state->model");
  });

  it("has no cycle between its folders", () => {
    expect(explainCycles(edges)).toEqual([]);
  });

  it("the model layer imports no other world folder", () => {
    expect(edges.filter((e) => e.from === "model").map((e) => e.where)).toEqual([]);
  });

  it("the cycle check names the imports of a cycle", () => {
    const bad: Edge[] = [
      { from: "engine", to: "tools", where: "engine/step.ts imports ../tools/a.js" },
      { from: "tools", to: "engine", where: "tools/a.ts imports ../engine/draft.js" },
      { from: "tools", to: "model", where: "tools/a.ts imports ../model/types.js" },
    ];
    expect(explainCycles(bad)).toEqual([
      "cycle engine -> tools (engine/step.ts imports ../tools/a.js) -> engine (tools/a.ts imports ../engine/draft.js)",
    ]);
  });
});
