import { lstatSync, mkdtempSync, type Stats } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DoneVerdict } from "../agents/types.js";
import { childPathsBytes } from "../core/byte-paths.js";
import { type Continuation, errorMessage, type SubtaskScore, type TrialResult } from "../core/index.js";
import { removeTree } from "../sandbox/remove-tree.js";
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
      const workdir = d.task.config.environment.workdir;
      const cap = d.task.config.environment.storage_mb * 1024 * 1024;
      const host = d.sandbox.hostPathOf?.(workdir) ?? null;
      // The copy writes sparse files out in full: a workdir whose files claim more than the
      // task's disk quota (truncate -s 10T) would fill the host's /tmp. Such a claim is not checked.
      if (host !== null && apparentBytesOver(host, cap)) {
        d.log?.(`continue-until-timeout: the workdir's files claim more than ${cap} bytes; not checked`);
        return { accept: true };
      }
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
        let check: TrialResult;
        try {
          check = await d.verifySnapshot(snapshot, `stop${selfTerminations}`);
        } catch (e) {
          // A check that could not run is the host's problem: it must not end the agent's trial.
          d.log?.(`continue-until-timeout: the check could not run: ${errorMessage(e)}`);
          return { accept: true };
        }
        if (first) rewardAtFirstStop = check.reward;
        const failing = publicFailures(check);
        if (failing === null) return { accept: true };
        reentries += 1;
        return { accept: false, feedback: feedbackText(failing) };
      } finally {
        removeTree(scratch);
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

/** Whether the regular files under `dir` claim more than `cap` bytes (st_size; links not followed). */
export function apparentBytesOver(dir: string, cap: number): boolean {
  let total = 0;
  let seen = 0;
  const stack: Buffer[] = [Buffer.from(dir)];
  while (stack.length > 0) {
    const at = stack.pop() as Buffer;
    let paths: Buffer[];
    try {
      // By bytes: a folder whose name is not UTF-8 must not hide what it holds from the cap.
      paths = childPathsBytes(at);
    } catch {
      continue;
    }
    for (const p of paths) {
      // A flood of entries is as much a reason not to copy as a flood of bytes.
      if (++seen > MAX_SNAPSHOT_ENTRIES) return true;
      let st: Stats | undefined;
      try {
        st = lstatSync(p, { throwIfNoEntry: false });
      } catch {
        // Deeper than the host can name (ENAMETOOLONG): what is there cannot be measured, and a
        // sparse file there would otherwise be copied out in full. Before, this threw.
        return true;
      }
      if (st?.isDirectory() === true) stack.push(p);
      else if (st?.isFile() === true) {
        total += st.size;
        if (total > cap) return true;
      }
    }
  }
  return false;
}

const MAX_SNAPSHOT_ENTRIES = 200_000;

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
