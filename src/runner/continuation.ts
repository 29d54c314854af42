import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DoneVerdict } from "../agents/types.js";
import { type Continuation, errorMessage, type SubtaskScore, type TrialResult } from "../core/index.js";
import type { Sandbox } from "../sandbox/types.js";
import type { Task } from "../task/types.js";

/**
 * Continue-until-timeout mode (`run --until-timeout`), the harness variant that measures what
 * false finishes cost. Each time the agent declares completion, a copy of its workdir is verified
 * in a fresh sandbox (no agent process, the same hidden seed); if every public check passes the
 * agent may stop, otherwise it is told which public checks failed and keeps working until its
 * budget ends. The R of the workdir at the first declaration is recorded beside the final R.
 */
export interface ContinuationTracker {
  onDone: () => Promise<DoneVerdict>;
  /** The record for the trial result; null when the mode is off. */
  record(): Continuation;
}

export interface ContinuationDeps {
  sandbox: Sandbox;
  task: Task;
  /** Seconds the agent phase has run so far. */
  elapsedSec: () => number;
  /** Runs the task's verifier on a workdir snapshot in a fresh sandbox (a nop trial over it). */
  verifySnapshot: (snapshotDir: string, label: string) => Promise<TrialResult>;
  log?: (line: string) => void;
}

export function createContinuation(d: ContinuationDeps): ContinuationTracker {
  let selfTerminations = 0;
  let reentries = 0;
  let firstStopSec: number | null = null;
  let rewardAtFirstStop: number | null = null;
  return {
    onDone: async () => {
      selfTerminations += 1;
      const first = firstStopSec === null;
      if (first) firstStopSec = Math.round(d.elapsedSec() * 1000) / 1000;
      const scratch = mkdtempSync(join(tmpdir(), "longhaul-stop-"));
      try {
        const snapshot = join(scratch, "workdir");
        try {
          // Links are kept as links (they resolve inside the new sandbox); a FIFO or a socket
          // makes the copy fail, and then the claim cannot be checked: the agent may stop.
          await d.sandbox.download(d.task.config.environment.workdir, snapshot);
        } catch (e) {
          d.log?.(`continue-until-timeout: workdir could not be copied for the check: ${errorMessage(e)}`);
          return { accept: true };
        }
        const check = await d.verifySnapshot(snapshot, `stop${selfTerminations}`);
        if (first) rewardAtFirstStop = check.reward;
        const failing = publicFailures(check);
        if (failing === null) return { accept: true };
        reentries += 1;
        return { accept: false, feedback: feedbackText(failing) };
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
    record: () => ({
      self_terminations: selfTerminations,
      reentries,
      first_stop_sec: firstStopSec,
      reward_at_first_stop: rewardAtFirstStop,
    }),
  };
}

/** The public subtasks that did not pass, or null when all did. A broken verifier lets the agent stop. */
function publicFailures(check: TrialResult): SubtaskScore[] | null {
  if (check.outcome === "grading_error" || check.outcome === "infra_error") return null;
  const failing = check.subtasks.filter((s) => s.visibility === "public" && s.score < 1);
  return failing.length > 0 ? failing : null;
}

function feedbackText(failing: SubtaskScore[]): string {
  const lines = failing.map(
    (s) => `- ${s.id}: score ${s.score.toFixed(3)}${s.message ? ` (${s.message.slice(0, 300)})` : ""}`,
  );
  return [
    "You declared the task complete, but its public checks do not pass yet:",
    ...lines,
    "Your time is not up: keep working until every check passes, then declare completion again.",
  ].join("\n");
}
