import { z } from "zod";
import { InputError } from "../../core/errors.js";
import type { PlanStep } from "../types.js";

/** Transform libraries: `full` (every registered transform), `basic` (six) and the `no-xref-prep` ablation. */
export const LIBRARIES = ["basic", "full", "no-xref-prep"] as const;
export type LibraryName = (typeof LIBRARIES)[number];

export const PlanStepSchema = z.object({
  transform: z.string().regex(/^[a-z][a-z0-9-]*$/),
  targets: z.array(z.string().min(1)).min(1),
  params: z.unknown(),
  seed: z.number().int().min(0).max(0xffffffff),
});

/**
 * A plan: bound transform applications in the order they are applied. Steps are applied one after
 * another to the parent's tree; a step may bind to paths an earlier step produced.
 */
export const PlanSchema = z.object({
  proposer: z.string().min(1),
  library: z.enum(LIBRARIES),
  seed: z.number().int().min(0),
  steps: z.array(PlanStepSchema).min(1).max(64),
});

export type Plan = z.infer<typeof PlanSchema> & { steps: PlanStep[] };

/** Parses a plan (from res.json or a proposer), naming `where` and the field in the error. */
export function parsePlan(value: unknown, where: string): Plan {
  const r = PlanSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue?.path.join(".") ?? "";
    throw new InputError(
      where,
      undefined,
      field,
      `plan${field ? `.${field}` : ""}: ${issue?.message ?? "invalid"}`,
    );
  }
  return r.data as Plan;
}
