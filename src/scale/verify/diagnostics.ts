/**
 * Why a child was rejected. Codes are stable (tests, docs/scale.md and the repair loop key on
 * them); `step` names the published or planned step concerned ("d2.1": depth 2, plan step 1) or
 * is null when the problem is not one step's.
 */
export const DIAGNOSTIC_CODES = [
  // (a) lineage and protected requirements
  "res-invalid",
  "lineage-mismatch",
  "goal-changed",
  "test-changed",
  "rubric-changed",
  "fact-changed",
  // (b) reproducibility of the declared plan
  "plan-invalid",
  "non-reproducible",
  "spec-mismatch",
  // (c) the public restore steps, run in a fresh sandbox
  "restore-failed",
  "wrong-reference",
  "unsatisfied-prerequisite",
  "missing-fact",
  "missing-record",
  "fact-mismatch",
  // (d) oracle trials
  "oracle-fails",
  "no-change",
  // (e) the spec update
  "leaked-fact",
] as const;
export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

export interface Diagnostic {
  code: DiagnosticCode;
  step: string | null;
  message: string;
}

export const CHECK_NAMES = ["protected", "reproducible", "restore", "leak", "oracle"] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export interface CheckResult {
  name: CheckName;
  status: "pass" | "fail" | "skipped";
  detail: string;
  diagnostics: Diagnostic[];
}

export interface Verdict {
  ok: boolean;
  checks: CheckResult[];
  diagnostics: Diagnostic[];
}

export function diag(code: DiagnosticCode, step: string | null, message: string): Diagnostic {
  return { code, step, message };
}

/** `detail` describes a pass; a failure says how many problems, unless `always` keeps `detail`. */
export function checkResult(
  name: CheckName,
  diagnostics: Diagnostic[],
  detail: string,
  always = false,
): CheckResult {
  return {
    name,
    status: diagnostics.length === 0 ? "pass" : "fail",
    detail: diagnostics.length === 0 || always ? detail : `${diagnostics.length} problem(s)`,
    diagnostics,
  };
}

export function verdictOf(checks: CheckResult[]): Verdict {
  const diagnostics = checks.flatMap((c) => c.diagnostics);
  return { ok: checks.every((c) => c.status !== "fail"), checks, diagnostics };
}
