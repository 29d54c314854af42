import { errorMessage, UserError } from "../../core/errors.js";
import { isTreePath } from "../file-tree.js";
import { shq } from "../layout.js";
import { getTransform } from "../transforms/registry.js";
import type { FileTree, RestoreStep } from "../types.js";
import { inLibrary } from "./libraries.js";
import type { Plan } from "./schema.js";

/** A plan step that cannot be applied; `step` is its 0-based index in the plan. */
export class PlanStepError extends UserError {
  readonly step: number;
  constructor(step: number, message: string, options?: { cause?: unknown }) {
    super(`plan step ${step + 1}: ${message}`, options);
    this.step = step;
  }
}

export interface AppliedStep {
  transform: string;
  targets: string[];
  access: string;
  restore: RestoreStep[];
  produced: string[];
  removed: string[];
}

/** The execute bits (a subset of 0o111) of the parent's executable files, by tree path. */
export type ExecutableBits = ReadonlyMap<string, number>;

export interface AppliedPlan {
  env: FileTree;
  steps: AppliedStep[];
}

/**
 * Applies a plan to a tree, step after step. Each step's targets must exist when it runs (so a
 * step bound to what an earlier one produced comes after it), its parameters must parse with the
 * transform's own schema, and its output must be well formed. A step bound to a file that is
 * executable in the parent (`executables`) also restores its execute bits: a tree holds bytes
 * only, so a file that was moved, wrapped or remade comes back without them otherwise, and a
 * solution that runs it fails with "Permission denied".
 */
export function applyPlan(tree: FileTree, plan: Plan, executables: ExecutableBits = new Map()): AppliedPlan {
  let env: FileTree = tree;
  const steps: AppliedStep[] = [];
  plan.steps.forEach((step, i) => {
    let t: ReturnType<typeof getTransform>;
    try {
      t = getTransform(step.transform);
    } catch (e) {
      throw new PlanStepError(i, errorMessage(e));
    }
    if (!inLibrary(t, plan.library)) {
      throw new PlanStepError(i, `${t.name} is not in the ${plan.library} library this plan declares`);
    }
    const missing = step.targets.filter((p) => !env.has(p));
    if (missing.length > 0) {
      throw new PlanStepError(
        i,
        `${t.name} is bound to ${missing.join(", ")}, which no earlier step left in the tree`,
      );
    }
    if (t.arity === "one" ? step.targets.length !== 1 : step.targets.length < 2) {
      throw new PlanStepError(
        i,
        `${t.name} binds ${t.arity === "one" ? "one target" : "two or more targets"}, got ${step.targets.length}`,
      );
    }
    const refused = step.targets.filter((p) => !t.accepts(p, env.get(p) ?? new Uint8Array()));
    if (refused.length > 0) throw new PlanStepError(i, `${t.name} does not accept ${refused.join(", ")}`);
    const parsed = t.params.safeParse(step.params);
    if (!parsed.success) {
      throw new PlanStepError(i, `${t.name} parameters: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    }
    let out: ReturnType<typeof t.apply>;
    try {
      out = t.apply({ env, targets: step.targets, params: parsed.data, seed: step.seed });
    } catch (e) {
      throw new PlanStepError(i, `${t.name} failed: ${errorMessage(e)}`, { cause: e });
    }
    const bad = [...out.env.keys()].find((p) => !isTreePath(p));
    if (bad !== undefined) throw new PlanStepError(i, `${t.name} wrote a bad path ${JSON.stringify(bad)}`);
    const lost = out.produced.filter((p) => !out.env.has(p));
    if (lost.length > 0)
      throw new PlanStepError(i, `${t.name} says it produced ${lost.join(", ")}, which are not in its tree`);
    if (out.restore.length === 0) throw new PlanStepError(i, `${t.name} published no restore step`);
    steps.push({
      transform: t.name,
      targets: [...step.targets],
      access: out.access,
      restore: [...out.restore, ...modeSteps(step.targets, executables)],
      produced: [...out.produced],
      removed: [...out.removed],
    });
    env = out.env;
  });
  return { env, steps };
}

/**
 * Paths a later transform may bind to after `applied`: the earlier resources still present, plus
 * everything the plan produced (keys, manifests, parts), in a stable order.
 */
export function nextResources(before: readonly string[], applied: AppliedPlan): string[] {
  const out = new Set(before);
  for (const s of applied.steps) {
    for (const p of s.removed) out.delete(p);
    for (const p of s.produced) out.add(p);
  }
  return [...out].filter((p) => applied.env.has(p)).sort();
}

/** `chmod` steps giving each executable target its execute bits back, after the step's own restore. */
function modeSteps(targets: readonly string[], executables: ExecutableBits): RestoreStep[] {
  const out: RestoreStep[] = [];
  for (const p of targets) {
    const bits = (executables.get(p) ?? 0) & 0o111;
    if (bits === 0) continue;
    // Named per class (u, g, o), so the result does not depend on the umask of whoever runs it.
    const who = `${bits & 0o100 ? "u" : ""}${bits & 0o010 ? "g" : ""}${bits & 0o001 ? "o" : ""}`;
    out.push({ run: `chmod ${who}+x ${shq(p)}`, why: `make ${p} executable again, as it was` });
  }
  return out;
}
