import { childTestFiles, type ParentInfo } from "../child/build-child.js";
import { parseSpecUpdates } from "../child/spec-update.js";
import { treeDigest } from "../file-tree.js";
import type { GroundFact } from "../types.js";
import { type ChildState, changedPaths, listShort } from "./context.js";
import { type CheckResult, checkResult, type Diagnostic, diag } from "./diagnostics.js";

/**
 * Check (a): the child descends from its recorded, unchanged parent, and the goal text, the
 * checks (tests/ and rubric) and the protected ground facts are exactly the parent's.
 */
export function checkProtected(
  child: ChildState,
  parent: ParentInfo,
  expectedTests: ReadonlyMap<string, Uint8Array> = childTestFiles(parent.requirements, parent.tree.workdir),
): CheckResult {
  const out: Diagnostic[] = [];
  const res = child.res;
  if (res.parent.checksum !== parent.checksum) {
    out.push(
      diag(
        "lineage-mismatch",
        null,
        `parent ${parent.dir} changed since this child was made (task checksum differs)`,
      ),
    );
  }
  // The root's bare solution is what check (d) runs for a program child: it must be the
  // verified parent's root, never a folder res.json points at.
  if (res.root.id !== parent.root.id) {
    out.push(
      diag(
        "lineage-mismatch",
        null,
        `res.json names root ${res.root.id}; the parent's root is ${parent.root.id}`,
      ),
    );
  }
  if (res.parent.depth !== parent.depth || res.depth !== parent.depth + 1) {
    out.push(
      diag("lineage-mismatch", null, `depth ${res.depth} does not follow the parent's depth ${parent.depth}`),
    );
  }
  if (res.parent.env_digest !== treeDigest(parent.tree.tree)) {
    out.push(
      diag("lineage-mismatch", null, "the parent's environment digest is not the one res.json records"),
    );
  }
  const mine = child.requirements.protected;
  const theirs = parent.requirements.protected;
  if (!child.instruction.startsWith(parent.instruction)) {
    out.push(
      diag(
        "goal-changed",
        null,
        "instruction.md does not start with the parent's instruction, byte for byte",
      ),
    );
  } else if (mine.goalDigest !== theirs.goalDigest) {
    out.push(diag("goal-changed", null, "the goal text (before the first environment update) differs"));
  }
  const sections = parseSpecUpdates(child.instruction).sections.map((s) => s.depth);
  const wanted = Array.from({ length: res.depth }, (_, i) => i + 1);
  if (sections.join(",") !== wanted.join(",")) {
    out.push(
      diag("goal-changed", null, `environment updates for depths [${sections}] where [${wanted}] belong`),
    );
  }
  const changed = changedPaths(child.tests, expectedTests);
  if (changed.length > 0) {
    out.push(
      diag(
        "test-changed",
        null,
        `tests/ differs from what the parent's checks require: ${listShort(changed)}`,
      ),
    );
  } else if (mine.testsDigest !== theirs.testsDigest) {
    out.push(diag("test-changed", null, "the digest of the original tests/ differs from the parent's"));
  }
  if (mine.rubricDigest !== theirs.rubricDigest) {
    out.push(diag("rubric-changed", null, "tests/rubric.toml differs from the parent's"));
  }
  out.push(...factDiffs(mine.facts, theirs.facts, "the child's protected snapshot"));
  const recorded = res.protected;
  const stale = [
    recorded.goal_digest !== theirs.goalDigest ? "goal_digest" : "",
    recorded.tests_digest !== theirs.testsDigest ? "tests_digest" : "",
    recorded.rubric_digest !== theirs.rubricDigest ? "rubric_digest" : "",
    recorded.reads.join("\n") !== theirs.reads.join("\n") ? "reads" : "",
    factDiffs(recorded.facts, theirs.facts, "").length > 0 ? "facts" : "",
  ].filter(Boolean);
  if (stale.length > 0) {
    out.push(
      diag("lineage-mismatch", null, `res.json protected ${stale.join(", ")} differ from the parent's`),
    );
  }
  return checkResult(
    "protected",
    out,
    theirs.facts.length > 0
      ? `goal, tests, rubric and ${theirs.facts.length} ground facts unchanged`
      : // A program task's checks read no environment file: its ground truth is what the verifier generates.
        "goal, tests and rubric unchanged (no environment file is read by the checks: the verifier generates its ground truth)",
  );
}

function factDiffs(mine: readonly GroundFact[], theirs: readonly GroundFact[], where: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byPath = new Map(mine.map((f) => [f.path, f]));
  for (const f of theirs) {
    const m = byPath.get(f.path);
    if (m === undefined) out.push(diag("fact-changed", null, `${where} lacks the protected file ${f.path}`));
    else if (m.form !== f.form || m.digest !== f.digest) {
      out.push(
        diag("fact-changed", null, `${where}: ${f.path} is not the parent's (${f.form} digest differs)`),
      );
    }
  }
  const extra = mine.filter((f) => !theirs.some((t) => t.path === f.path)).map((f) => f.path);
  if (extra.length > 0)
    out.push(diag("fact-changed", null, `${where} protects files the parent does not: ${listShort(extra)}`));
  return out;
}
