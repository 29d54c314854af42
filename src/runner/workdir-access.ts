import { lstatSync } from "node:fs";
import { runHostCommand } from "../sandbox/host-command.js";
import type { Sandbox } from "../sandbox/types.js";

/**
 * Gives the workdir back to its owner before the verifier reads it. An agent that made its
 * workdir or its programs unreadable (chmod 000) would otherwise stop the grader from reading
 * them at all, and turn its own failure into the task's grading error; with the permissions
 * repaired, the grader reads and runs what is there and scores it as it is. Links are not
 * followed: chmod -R leaves links inside alone, and a workdir that is itself no longer a real
 * folder (over an image the agent may replace it with a link to any host path, which chmod would
 * follow as root) is left as it is. On a provider without host paths nothing is done.
 */
export async function restoreWorkdirAccess(sandbox: Sandbox, workdir: string): Promise<void> {
  const host = sandbox.hostPathOf?.(workdir) ?? null;
  if (host === null || lstatSync(host, { throwIfNoEntry: false })?.isDirectory() !== true) return;
  // Bounded: a flood of files costs at most this long, and then the grader sees what it sees.
  await runHostCommand(["chmod", "-R", "u+rwX", "--", host], { timeoutMs: 60_000, capture: false });
}
