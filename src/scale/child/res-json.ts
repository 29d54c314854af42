import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { errorMessage, InputError } from "../../core/errors.js";
import { channelDeclSchema } from "../channel/steps.js";
import { CHILD } from "../layout.js";
import { PlanSchema } from "../plan/schema.js";
import { FACT_FORMS } from "../types.js";

export const MODES = ["recursive", "independent"] as const;
export type ScaleMode = (typeof MODES)[number];
export const MAX_DEPTH = 10;

const Digest = z.string().regex(/^[0-9a-f]{64}$|^none$/);

export const GroundFactSchema = z.object({ path: z.string(), form: z.enum(FACT_FORMS), digest: Digest });

/** res.json: what a child is, where it came from and what it must keep. Documented in docs/scale.md. */
export const ResJsonSchema = z.object({
  format: z.literal("longhaul-res-child"),
  version: z.literal(1),
  id: z.string().min(1),
  depth: z.number().int().min(1).max(MAX_DEPTH),
  mode: z.enum(MODES),
  branch: z.number().int().min(1),
  /** Repair attempt that produced this child (0: the first proposal). */
  attempt: z.number().int().min(0),
  workdir: z.string().startsWith("/"),
  parent: z.object({
    id: z.string().min(1),
    /** The parent task folder, relative to this child's folder. */
    dir: z.string().min(1),
    depth: z.number().int().min(0),
    checksum: z.string(),
    env_digest: Digest,
  }),
  root: z.object({ id: z.string().min(1), dir: z.string().min(1) }),
  plan: PlanSchema,
  protected: z.object({
    goal_digest: Digest,
    tests_digest: Digest,
    rubric_digest: Digest,
    reads: z.array(z.string()),
    facts: z.array(GroundFactSchema),
  }),
  env: z.object({
    parent_digest: Digest,
    digest: Digest,
    /** Paths the next level's plan may bind to. */
    resources: z.array(z.string()),
  }),
  steps: z.array(
    z.object({
      label: z.string(),
      transform: z.string(),
      targets: z.array(z.string()),
      produced: z.array(z.string()),
      removed: z.array(z.string()),
    }),
  ),
  /** A program task's child (docs/scale.md): its whole input channel, every level's steps in order. */
  channel: channelDeclSchema.optional(),
});

export type ResJson = z.infer<typeof ResJsonSchema>;

export function readResJson(childDir: string): ResJson {
  const file = join(childDir, CHILD.resJson);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new InputError(file, undefined, undefined, `not readable: ${errorMessage(e)}`);
  }
  const r = ResJsonSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue?.path.join(".") ?? "";
    throw new InputError(file, undefined, field, `${field || "(top)"}: ${issue?.message ?? "invalid"}`);
  }
  return r.data;
}

export function writeResJson(childDir: string, res: ResJson): void {
  writeFileSync(join(childDir, CHILD.resJson), `${JSON.stringify(res, null, 2)}\n`);
}

/**
 * How many strengthening levels separate a task from its root: a RES child's `res.json` depth,
 * 0 for a task without one (a hand-written task).
 */
export function lineageDepth(taskDir: string): number {
  return existsSync(join(taskDir, CHILD.resJson)) ? readResJson(taskDir).depth : 0;
}
