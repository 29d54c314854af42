import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { errorMessage, InputError, UserError } from "../../core/errors.js";
import { writeJsonAtomic } from "../../store/atomic-write.js";
import { MAX_DEPTH, MODES } from "../child/res-json.js";
import { LIBRARIES } from "../plan/schema.js";
import { LINEAGE_JSONL } from "./store.js";

/** Beside lineage.jsonl: what the lineage was grown with, so `scale --resume` can go on with it. */
export const LINEAGE_SETTINGS = "scale.json";

export const LineageSettingsSchema = z.object({
  format: z.literal("longhaul-res-lineage"),
  version: z.literal(1),
  /** The root task folder when the lineage began (absolute; the checksum is what is compared). */
  root: z.string(),
  root_checksum: z.string(),
  /** The deepest level asked for so far (a recursive lineage's resume may ask for more). */
  depth: z.number().int().min(1).max(MAX_DEPTH),
  /** Chains (recursive) or independent children asked for so far (a resume may ask for more). */
  children: z.number().int().min(1),
  library: z.enum(LIBRARIES),
  mode: z.enum(MODES),
  seed: z.number().int(),
  steps: z.number().int().min(1),
  repairs: z.number().int().min(0),
  /** The proposer that plans the levels ("seeded", "seeded-channel", "llm:provider:model"). */
  proposer: z.string(),
  trials: z.boolean(),
  target: z
    .object({ agent: z.string(), model: z.string().nullable(), attempts: z.number().int().min(1) })
    .nullable(),
  id_prefix: z.string(),
});
export type LineageSettings = z.infer<typeof LineageSettingsSchema>;

/** Settings a resumed run must share with the lineage: every child depends on them. */
const FIXED = [
  "root_checksum",
  "library",
  "mode",
  "seed",
  "steps",
  "repairs",
  "proposer",
  "trials",
  "target",
  "id_prefix",
] as const satisfies readonly (keyof LineageSettings)[];

export function writeLineageSettings(outDir: string, s: LineageSettings): void {
  writeJsonAtomic(join(outDir, LINEAGE_SETTINGS), LineageSettingsSchema.parse(s));
}

/** The lineage's settings, or null for a lineage grown before they were recorded. */
export function readLineageSettings(outDir: string): LineageSettings | null {
  const file = join(outDir, LINEAGE_SETTINGS);
  if (!existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new InputError(file, undefined, undefined, `not JSON: ${errorMessage(e)}`);
  }
  const parsed = LineageSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") ?? "";
    throw new InputError(file, undefined, field, `field "${field}": ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/** The settings of the lineage in `outDir` to resume; a clear error when there is none to resume. */
export function resumeSettings(outDir: string): LineageSettings {
  if (!existsSync(join(outDir, LINEAGE_JSONL))) {
    throw new UserError(
      `${outDir} holds no lineage to resume (no ${LINEAGE_JSONL}); start one without --resume`,
    );
  }
  const recorded = readLineageSettings(outDir);
  if (recorded === null) {
    throw new UserError(
      `${outDir}: the lineage has no ${LINEAGE_SETTINGS} (it was grown before lineages recorded their settings), so it cannot be resumed; start a new --out`,
    );
  }
  return recorded;
}

/**
 * Throws, naming the first field, when this run's settings would grow children the lineage's
 * own settings would not: a resumed chain must continue exactly as if it had never stopped.
 */
export function checkResumable(outDir: string, recorded: LineageSettings, run: LineageSettings): void {
  // An independent child's plan has depth × steps steps: a deeper resume would grow other children.
  const fixed = recorded.mode === "independent" ? [...FIXED, "depth" as const] : FIXED;
  for (const key of fixed) {
    const was = JSON.stringify(recorded[key]);
    const now = JSON.stringify(run[key]);
    if (was !== now) {
      const why =
        key === "root_checksum"
          ? "the root task has changed since the lineage began"
          : `this run asks for ${now}`;
      throw new InputError(
        join(outDir, LINEAGE_SETTINGS),
        undefined,
        key,
        `field "${key}": the lineage was grown with ${was}, but ${why}; resume with the lineage's own settings, or start a new --out`,
      );
    }
  }
}

/** The settings after a resume: a recursive lineage's depth and the children only ever grow. */
export function widened(recorded: LineageSettings, run: LineageSettings): LineageSettings {
  return {
    ...recorded,
    depth: Math.max(recorded.depth, run.depth),
    children: Math.max(recorded.children, run.children),
  };
}
