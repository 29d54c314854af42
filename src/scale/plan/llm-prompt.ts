import { extname } from "node:path";
import { z } from "zod";
import type { FileTree, Transform } from "../types.js";
import type { ProposeRequest, RepairRequest } from "./proposer.js";
import type { Plan } from "./schema.js";

/** What the model is told it is doing and the one reply format accepted. */
export const LLM_SYSTEM_PROMPT = [
  "You plan transformations of the files of a task environment, to make the task harder to solve",
  "without changing what it asks: each step applies one transform of the given library to files",
  "(its targets). Every plan is checked mechanically (schema, binding, restore, reproducibility);",
  "a wrong plan is rejected and comes back to you with the checker's diagnostics.",
  "Rules: use only the listed transforms; a step's targets must exist when the step runs (a file an",
  "earlier step encoded, moved or removed is gone); a transform of arity `one` binds exactly one",
  "target, arity `many` at least two; `params` must match the transform's parameter schema.",
  'Reply with only one JSON object, no prose: {"steps":[{"transform":"<name>","targets":["<path>"],"params":{...}}]}.',
].join("\n");

/** A coarse kind of a file, so the model can tell a table from a blob without seeing the bytes. */
function fileKind(path: string, bytes: Uint8Array): string {
  const ext = extname(path).toLowerCase();
  const named: Record<string, string> = {
    ".csv": "csv table",
    ".tsv": "tsv table",
    ".jsonl": "jsonl records",
    ".json": "json",
    ".sqlite": "sqlite database",
    ".db": "sqlite database",
    ".png": "png image",
    ".gz": "gzip",
    ".tar": "tar archive",
  };
  const k = named[ext];
  if (k !== undefined) return k;
  return bytes.subarray(0, 4096).includes(0) ? "binary" : "text";
}

/** The transform's parameter shape as compact JSON Schema, or null when zod cannot express it. */
function paramsShape(t: Transform<unknown>): string | null {
  try {
    const { $schema: _drop, ...schema } = z.toJSONSchema(t.params, { unrepresentable: "any" });
    return JSON.stringify(schema);
  } catch {
    return null;
  }
}

function transformLines(transforms: readonly Transform<unknown>[], seed: number): string[] {
  return transforms.map((t) => {
    const shape = paramsShape(t);
    const example = JSON.stringify(t.defaultParams(seed)) ?? "null";
    return `- ${t.name} (${t.kind}, arity ${t.arity}): ${t.summary}${shape === null ? "" : ` params schema: ${shape}`} example params: ${example}`;
  });
}

function resourceLines(
  tree: FileTree,
  resources: readonly string[],
  ts: readonly Transform<unknown>[],
): string[] {
  return resources.flatMap((p) => {
    const bytes = tree.get(p);
    if (bytes === undefined) return [];
    const accepted = ts.filter((t) => t.accepts(p, bytes)).map((t) => t.name);
    return [
      `- ${p} (${bytes.length} bytes, ${fileKind(p, bytes)}; accepted by: ${accepted.join(", ") || "none"})`,
    ];
  });
}

/** The steps of a plan as the model wrote them (what it may change), without the fields we fill. */
export function planForModel(plan: Plan): string {
  return JSON.stringify({
    steps: plan.steps.map((s) => ({ transform: s.transform, targets: s.targets, params: s.params })),
  });
}

/** The user turn of a fresh proposal: the library, the bindable resources and how many steps. */
export function proposePrompt(r: ProposeRequest): string {
  return [
    `Transform library "${r.library}":`,
    ...transformLines(r.transforms, r.seed),
    "",
    "Resources a step may bind to (the files the task's tests read, or what earlier levels produced):",
    ...resourceLines(r.tree, r.resources, r.transforms),
    "",
    `Plan ${r.steps} step${r.steps === 1 ? "" : "s"} (fewer if nothing else applies). Later steps may bind files an earlier step produced.`,
  ].join("\n");
}

/** The user turn of a repair: the proposal context, every rejected plan and the last one's diagnostics. */
export function repairPrompt(r: RepairRequest): string {
  const earlier = (r.rejected ?? []).filter((p) => p !== r.previous);
  return [
    proposePrompt(r),
    "",
    ...(earlier.length === 0
      ? []
      : ["Plans rejected earlier (do not repeat them):", ...earlier.map((p) => `- ${planForModel(p)}`), ""]),
    `Repair attempt ${r.attempt}. This plan was rejected:`,
    planForModel(r.previous),
    "Verifier diagnostics (code, step, message):",
    ...r.diagnostics.map((d) => `- ${d.code} ${d.step ?? "-"}: ${d.message}`),
    "",
    "Reply with a changed plan that avoids these problems: bind other targets, change parameters or reorder steps.",
  ].join("\n");
}
