import { linkedController, settle, unsettle } from "../../core/all-or-stop.js";
import type { CheckResult } from "./diagnostics.js";

export interface RestoreAndOracleInput {
  /** Check (c): restore in a fresh sandbox. */
  restore: (signal: AbortSignal | undefined) => Promise<CheckResult>;
  /** Check (d): the oracle trials. */
  oracle: (signal: AbortSignal) => Promise<CheckResult>;
  /** false: (d) is not run at all (`--no-trials`). */
  trials?: boolean;
  signal?: AbortSignal;
  /** Why (d) says nothing when (c) fails, for its "skipped" line. */
  skippedBecause: string;
}

/**
 * Checks (c) and (d) side by side: they use separate sandboxes and neither reads the other's
 * output, and the trials are most of a child's cost, so they start with the restore check rather
 * than after it. When (c) fails, (d) cannot pass (the child's oracle runs the same restore path)
 * and says nothing new: its trials are stopped and it is reported as skipped, as before.
 */
export async function restoreAndOracle(input: RestoreAndOracleInput): Promise<CheckResult[]> {
  if (input.trials === false) {
    const restore = await input.restore(input.signal);
    return [restore, { name: "oracle", status: "skipped", detail: "trials not requested", diagnostics: [] }];
  }
  const outer = input.signal;
  const { stop, release } = linkedController(outer);
  // Settled, not awaited yet: a failed restore check must still wait for the trials to wind down.
  const oracle = settle(input.oracle(stop.signal));
  try {
    let restore: CheckResult;
    try {
      restore = await input.restore(input.signal);
    } catch (e) {
      stop.abort(e);
      await oracle;
      throw e;
    }
    if (restore.status === "fail") {
      stop.abort(new Error("the restore check failed"));
      const done = await oracle;
      // Ctrl-C during the check is the caller's to see, not a skipped oracle.
      if (!done.ok && outer?.aborted) throw done.error;
      return [restore, { name: "oracle", status: "skipped", detail: input.skippedBecause, diagnostics: [] }];
    }
    const done = await oracle;
    return [restore, unsettle(done)];
  } finally {
    release();
  }
}
