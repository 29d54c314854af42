import { errorMessage } from "../../core/errors.js";
import { buildChildFiles, type ParentInfo } from "../child/build-child.js";
import { stepLabel } from "../child/spec-update.js";
import { treeDigest } from "../file-tree.js";
import { type AppliedPlan, applyPlan, PlanStepError } from "../plan/apply.js";
import { parsePlan } from "../plan/schema.js";
import { type ChildState, changedPaths, listShort, taskTomlDiff } from "./context.js";
import { type CheckResult, checkResult, type Diagnostic, diag } from "./diagnostics.js";

/**
 * Check (b): the declared plan, applied again from the frozen parent, gives the candidate's
 * environment (same Merkle digest, same build context) and the same spec update and solution.
 */
export function checkReproducible(child: ChildState, parent: ParentInfo): CheckResult {
  const res = child.res;
  const out: Diagnostic[] = [];
  let applied: AppliedPlan;
  try {
    applied = applyPlan(parent.tree.tree, parsePlan(res.plan, `${child.dir}/res.json`), parent.executables);
  } catch (e) {
    const step = e instanceof PlanStepError ? stepLabel(res.depth, e.step) : null;
    return checkResult("reproducible", [diag("plan-invalid", step, errorMessage(e))], "");
  }
  const replayed = treeDigest(applied.env);
  const candidate = treeDigest(child.tree.tree);
  if (replayed !== candidate || replayed !== res.env.digest) {
    const differs = changedPaths(child.tree.tree, applied.env);
    const why =
      replayed !== candidate
        ? `re-applying the plan gives tree ${replayed.slice(0, 12)}, the candidate has ${candidate.slice(0, 12)} (${listShort(differs)})`
        : `res.json records tree ${res.env.digest.slice(0, 12)}, the plan gives ${replayed.slice(0, 12)}`;
    out.push(diag("non-reproducible", culprit(applied, differs, res.depth), why));
  }
  let expected: Map<string, Uint8Array>;
  try {
    expected = buildChildFiles(parent, res.plan, applied, {
      id: res.id,
      depth: res.depth,
      mode: res.mode,
      branch: res.branch,
      attempt: res.attempt,
      childDir: child.dir,
    }).files;
  } catch (e) {
    out.push(
      diag("non-reproducible", null, `the child cannot be rebuilt from its parent: ${errorMessage(e)}`),
    );
    return checkResult("reproducible", out, "");
  }
  const sub = (files: ReadonlyMap<string, Uint8Array>, prefix: string): Map<string, Uint8Array> =>
    new Map([...files].filter(([p]) => p.startsWith(prefix)).map(([p, b]) => [p.slice(prefix.length), b]));
  const envDiff = changedPaths(child.environment, sub(expected, "environment/"));
  if (envDiff.length > 0 && replayed === candidate) {
    out.push(diag("non-reproducible", null, `environment/ outside the tree differs: ${listShort(envDiff)}`));
  }
  const text = new TextDecoder();
  if (child.instruction !== text.decode(expected.get("instruction.md"))) {
    out.push(
      diag(
        "spec-mismatch",
        null,
        "instruction.md is not the parent's instruction plus the update the plan publishes",
      ),
    );
  }
  const solDiff = changedPaths(child.solution, sub(expected, "solution/"));
  if (solDiff.length > 0) {
    out.push(
      diag(
        "spec-mismatch",
        null,
        `solution/ is not the restore steps plus the parent's solution: ${listShort(solDiff)}`,
      ),
    );
  }
  const expectedRes = JSON.parse(text.decode(expected.get("res.json"))) as typeof res;
  if (
    JSON.stringify(expectedRes.steps) !== JSON.stringify(res.steps) ||
    expectedRes.env.resources.join() !== res.env.resources.join()
  ) {
    out.push(diag("spec-mismatch", null, "res.json steps or resources are not what the plan gives"));
  }
  out.push(...taskTomlDiff(child, expected));
  return checkResult(
    "reproducible",
    out,
    `plan of ${applied.steps.length} step(s) re-applied: tree ${replayed.slice(0, 12)}`,
  );
}

/** The last plan step that touched one of `paths`, as "d<depth>.<n>", or null. */
function culprit(applied: AppliedPlan, paths: readonly string[], depth: number): string | null {
  for (let i = applied.steps.length - 1; i >= 0; i--) {
    const s = applied.steps[i];
    if (s === undefined) continue;
    const touched = new Set([...s.targets, ...s.produced, ...s.removed]);
    if (paths.some((p) => touched.has(p))) return stepLabel(depth, i);
  }
  return null;
}
