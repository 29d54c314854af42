import type { ExecResult } from "../sandbox/types.js";
import type { VerifierFiles } from "./collect-logs.js";

export interface VerifierVerdict {
  /** The verifier's output cannot be trusted: the trial is a grading error whatever it wrote. */
  failed: boolean;
  /** Messages, most important first (the first becomes the trial's error message). */
  errors: string[];
}

/**
 * A reward is trusted only from a verifier that ran to the end and said so: exit code 0, no
 * timeout, and reward files that were plain regular files of sane size. A verifier that crashed
 * or was killed after writing reward 1.0 proves nothing about the agent's work.
 */
export function judgeVerifier(verify: ExecResult, timeoutSec: number, files: VerifierFiles): VerifierVerdict {
  const errors: string[] = [];
  const wroteReward = files.rewardJson !== null || files.rewardTxt !== null;
  const untrusted = wroteReward ? "; the reward it wrote is not trusted" : "";
  if (verify.timedOut) {
    errors.push(`verifier timed out after ${timeoutSec}s${untrusted}`);
  } else if (verify.exitCode !== 0) {
    const status =
      verify.exitCode === null
        ? `was killed by ${verify.signal ?? "a signal"}`
        : `exited with ${verify.exitCode}`;
    const stderr = tail(verify.stderr);
    errors.push(`verifier ${status}${untrusted}${stderr === "" ? "" : `: ${stderr}`}`);
  }
  errors.push(...files.refused);
  return {
    failed: errors.length > 0 && (errors.length > files.refused.length || files.rewardRefused),
    errors,
  };
}

function tail(text: string): string {
  const lines = text.trim().split("\n");
  return lines.slice(-3).join(" | ").slice(0, 500);
}
