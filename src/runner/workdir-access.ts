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
  await runHostCommand(workdirAccessArgv(host), { timeoutMs: 60_000, capture: false });
}

/**
 * `chmod -R u+rwX` on HOST, touching only the entries whose mode it would change. chmod -R sets
 * every entry's mode even when it stays the same, and over an image each such change copies the
 * file up into the sandbox's own layer: 55-70 ms of every trial's way to its verifier, for a
 * workdir the agent never locked. A folder is given its access when it is reached, before its
 * entries are read (find visits a folder before what is in it, and `\;` waits for chmod), so a
 * locked folder's contents are reached as chmod -R reaches them. Links are not followed, as
 * chmod -R does not follow them.
 */
export function workdirAccessArgv(host: string): string[] {
  // Each entry matches at most one branch: a folder; else, not a link, executable by someone
  // (u+rwX gives the owner x too); else, not a link and executable by no one.
  const branches = [
    "( -type d ! -perm -u=rwx -exec chmod u+rwx -- {} ; )",
    "( ! -type d ! -type l -perm /111 ! -perm -u=rwx -exec chmod u+rwx -- {} + )",
    "( ! -type d ! -type l ! -perm /111 ! -perm -u=rw -exec chmod u+rw -- {} + )",
  ];
  return ["find", "-P", host, ...branches.join(" -o ").split(" ")];
}
