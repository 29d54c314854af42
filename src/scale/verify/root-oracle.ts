import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorMessage, InfraError, type TrialResult, UserError } from "../../core/index.js";
import { deadlineHint } from "../../runner/check-task.js";
import { TrialInterrupted } from "../../runner/trial-interrupted.js";
import { type ImageMemo, type OracleTrialInput, prepare, trial } from "./oracle-trials.js";

/** The verifier's seed for oracle trials (check (d) runs its two trials with it too). */
export const ROOT_ORACLE_SEED = 1000;

/**
 * The root's own oracle, checked once before anything is planned: one real trial, as check (d)
 * runs them. Every child's oracle is the root's solution behind restore steps, so a root whose
 * oracle does not reach R = 1.0 (a solve.sh with CRLF line endings, a wrong answer) would use up
 * every proposal and repair of the first child and end it as `oracle-fails`, hiding the reason.
 * Returns the check's detail; throws a UserError (exit 2) naming the task and why it fails, or an
 * InfraError (exit 3) when the trial could not run.
 */
export async function checkRootOracle(
  taskDir: string,
  input: OracleTrialInput,
  images?: ImageMemo,
): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), "longhaul-res-root-"));
  try {
    const ready = await prepare(taskDir, scratch, "the root", images);
    if (typeof ready === "string") {
      throw new InfraError(`${taskDir}: the root's oracle trial cannot run: ${oneLine(ready)}`);
    }
    let r: TrialResult;
    try {
      r = await trial({ ...input, seed: ROOT_ORACLE_SEED }, ready, scratch, "root");
    } catch (e) {
      if (e instanceof TrialInterrupted || input.signal?.aborted) throw e;
      if (e instanceof UserError) throw e;
      throw new InfraError(`${taskDir}: the root's oracle trial failed to run: ${oneLine(errorMessage(e))}`, {
        cause: e,
      });
    }
    if (r.outcome === "infra_error") {
      throw new InfraError(`${taskDir}: the root's oracle trial failed to run: ${oneLine(why(r))}`);
    }
    if (r.reward !== 1) {
      throw new UserError(
        `${taskDir}: the root task's own oracle scores R = ${r.reward ?? "null"} (${oneLine(why(r))})${crlfHint(taskDir)}, not 1.0, so no child of it can pass; fix the task first (longhaul task check ${taskDir})`,
      );
    }
    return `the root's oracle scores R = 1.0 (seed ${ROOT_ORACLE_SEED})`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Why a trial fell short: its outcome and error, or the subtasks below 1 with their messages. */
function why(r: TrialResult): string {
  if (r.outcome !== "completed") {
    const msg = r.error?.message ?? r.grading_errors.join("; ");
    return `${r.outcome}${msg === "" ? "" : `: ${msg.slice(0, 300)}`}`;
  }
  const failing = r.subtasks
    .filter((s) => s.score < 1)
    .map((s) => `${s.id}=${s.score.toFixed(3)}${s.message ? ` "${s.message.slice(0, 120)}"` : ""}`);
  const errors = r.grading_errors.length > 0 ? `; ${r.grading_errors.join("; ").slice(0, 300)}` : "";
  return `failing subtasks: ${failing.join(", ") || "none reported"}${errors}${deadlineHint(r)}`;
}

/** A cause that the error text hides (bash reads `\r` as part of each word): CRLF line endings. */
function crlfHint(taskDir: string): string {
  try {
    return readFileSync(join(taskDir, "solution", "solve.sh")).includes("\r\n")
      ? "; solution/solve.sh has CRLF (Windows) line endings"
      : "";
  } catch {
    return "";
  }
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
