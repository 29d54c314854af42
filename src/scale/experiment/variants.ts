import { UserError } from "../../core/errors.js";
import { MAX_DEPTH, type ScaleMode } from "../child/res-json.js";
import type { LibraryName } from "../plan/schema.js";

/**
 * The lineage variants an experiment compares: `full` (recursive, full library) and its
 * ablations: the `no-xref-prep` and `basic` libraries, and `independent` mode (a child at depth
 * k is one level of k × steps steps from the root).
 */
export const VARIANTS = ["full", "no-xref-prep", "basic", "independent"] as const;
export type Variant = (typeof VARIANTS)[number];

export const VARIANT_SETUP: Record<Variant, { library: LibraryName; mode: ScaleMode }> = {
  full: { library: "full", mode: "recursive" },
  "no-xref-prep": { library: "no-xref-prep", mode: "recursive" },
  basic: { library: "basic", mode: "recursive" },
  independent: { library: "full", mode: "independent" },
};

/** `--ablations none | all | LIST`: `full` always, plus the listed ablations (LIST: comma-separated). */
export function parseAblations(value: string): Variant[] {
  const v = value.trim();
  if (v === "none") return ["full"];
  if (v === "all") return [...VARIANTS];
  const names = v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const n of names) {
    if (!(VARIANTS as readonly string[]).includes(n)) {
      throw new UserError(
        `--ablations: unknown variant "${n}" (none, all, or a list of ${VARIANTS.join(", ")})`,
      );
    }
  }
  return VARIANTS.filter((n) => n === "full" || names.includes(n));
}

/** `--depths 0,1,2,5,10`: distinct whole numbers from 0 to MAX_DEPTH, sorted. */
export function parseDepths(value: string): number[] {
  const parts = value.split(",").map((s) => s.trim());
  const depths = parts.map(Number);
  if (parts.some((p) => p === "") || depths.some((d) => !Number.isInteger(d) || d < 0 || d > MAX_DEPTH)) {
    throw new UserError(`--depths must list whole numbers from 0 to ${MAX_DEPTH}, got "${value}"`);
  }
  return [...new Set(depths)].sort((a, b) => a - b);
}
