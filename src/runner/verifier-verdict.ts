import type { ExecResult } from "../sandbox/types.js";
import type { VerifierFiles } from "./collect-logs.js";
import { toolingEvidence } from "./verifier-health.js";

export interface VerifierVerdict {
  /** The verifier's output cannot be trusted: the trial is a grading error whatever it wrote. */
  failed: boolean;
  /** Messages, most important first (the first becomes the trial's error message). */
  errors: string[];
}

/**
 * A reward is trusted only from a verifier that ran to the end and said so: exit code 0, no
 * timeout, and reward files that were plain regular files of sane size. A verifier that crashed
 * or was killed after writing reward 1.0 proves nothing about the agent's work. A reward of 0
 * (or none) from a verifier whose output shows it could not run its own tools is not trusted
 * either: `reward` is R as scored from its files, null when they gave none.
 */
export function judgeVerifier(
  verify: ExecResult,
  timeoutSec: number,
  files: VerifierFiles,
  reward: number | null = null,
): VerifierVerdict {
  const errors: string[] = [];
  const wroteReward = files.rewardJson !== null || files.rewardTxt !== null;
  // Only a 0 or a missing reward is in doubt: tools that failed cannot have produced a pass.
  const evidence = reward === null || reward === 0 ? toolingEvidence(verify.stdout, verify.stderr) : [];
  const shown = evidence.join(" | ");
  const untrusted = wroteReward ? "; the reward it wrote is not trusted" : "";
  if (verify.timedOut) {
    errors.push(`verifier timed out after ${timeoutSec}s${untrusted}`);
  } else if (verify.exitCode !== 0) {
    const status =
      verify.exitCode === null
        ? `was killed by ${verify.signal ?? "a signal"}`
        : `exited with ${verify.exitCode}`;
    const stderr = evidence.length > 0 ? shown : tail(verify.stderr);
    const before = wroteReward ? "" : " before writing a reward";
    errors.push(`verifier ${status}${before}${untrusted}${stderr === "" ? "" : `: ${stderr}`}`);
  } else if (evidence.length > 0) {
    const what = wroteReward ? `its reward ${reward ?? "(unreadable)"} is not trusted` : "it wrote no reward";
    errors.push(`verifier could not run its own tools, so ${what}: ${shown}`);
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
