import type { Rng } from "../core/rng.js";
import { StressError } from "./types.js";

/** Where in the pipeline a perturbation acts: on records, on their text, on the bytes, or on the file layout. */
export type Stage = "records" | "text" | "bytes" | "files";

export const PERTURBATIONS = [
  { id: "rename-fields", stage: "records", preserves: "values; keys map back one-to-one" },
  { id: "missing-values", stage: "records", preserves: "every cell not listed as removed" },
  { id: "numeric-jitter", stage: "records", preserves: "numbers within the stated relative bound" },
  {
    id: "duplicate-rows",
    stage: "records",
    preserves: "the original rows after the listed copies are dropped",
  },
  { id: "reorder-rows", stage: "records", preserves: "the multiset of rows (order is stated)" },
  { id: "reorder-keys", stage: "records", preserves: "every record's keys and values" },
  { id: "unit-change", stage: "records", preserves: "the quantity (converts back to 1e-9)" },
  { id: "timestamp-format", stage: "records", preserves: "the instant, to the format's precision" },
  { id: "junk-lines", stage: "text", preserves: "the text after the listed lines are deleted" },
  { id: "text-encoding", stage: "text", preserves: "the text (BOM dropped, CRLF read as LF)" },
  { id: "wrap-layers", stage: "bytes", preserves: "the bytes after peeling gzip/base64 layers" },
  { id: "split-parts", stage: "files", preserves: "the bytes when parts are joined in manifest order" },
  { id: "nested-manifest", stage: "files", preserves: "the bytes when the manifest tree is resolved" },
] as const;

export type PerturbationId = (typeof PERTURBATIONS)[number]["id"];
export const PERTURBATION_IDS: readonly PerturbationId[] = PERTURBATIONS.map((p) => p.id);

const STAGE_ORDER: readonly Stage[] = ["records", "text", "bytes", "files"];
/** Both decide the final file layout, so only one of them can apply. */
const EXCLUSIVE: readonly PerturbationId[] = ["split-parts", "nested-manifest"];

export function stageOf(id: PerturbationId): Stage {
  const p = PERTURBATIONS.find((x) => x.id === id);
  if (p === undefined) throw new StressError(`unknown perturbation ${id}`);
  return p.stage;
}

/**
 * Choose n distinct perturbations (fewer if the pool runs out) and order them so they compose:
 * stages run records → text → bytes → files; record-level ones keep their seed-chosen order;
 * junk-lines precedes text-encoding (junk is inserted into text, encoding turns text into bytes).
 */
export function pickPerturbations(
  rng: Rng,
  n: number,
  pool: readonly PerturbationId[] = PERTURBATION_IDS,
): PerturbationId[] {
  const chosen: PerturbationId[] = [];
  for (const id of rng.shuffle(pool)) {
    if (chosen.length >= n) break;
    if (chosen.includes(id)) continue;
    if (EXCLUSIVE.includes(id) && chosen.some((c) => EXCLUSIVE.includes(c))) continue;
    chosen.push(id);
  }
  return orderPerturbations(chosen);
}

/** Stable sort by stage; within "text", junk-lines first. */
export function orderPerturbations(ids: readonly PerturbationId[]): PerturbationId[] {
  const rank = (id: PerturbationId): number =>
    STAGE_ORDER.indexOf(stageOf(id)) * 10 + (id === "text-encoding" ? 1 : 0);
  return ids
    .map((id, i) => ({ id, i }))
    .sort((a, b) => rank(a.id) - rank(b.id) || a.i - b.i)
    .map((x) => x.id);
}
