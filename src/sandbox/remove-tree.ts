import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, rmSync } from "node:fs";
import { runHostCommand } from "./host-command.js";

/**
 * rmSync(path, recursive), also for a tree deeper than the host can name. An agent makes one with
 * relative names (mkdir d; cd d; ...), and Node's rmSync goes by path: ENAMETOOLONG, thrown from
 * a trial's clean-up, ended the whole job. rm walks by descriptor and reaches any depth; the
 * first error is thrown only if the tree is still there after it.
 */
export function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch (e) {
    spawnSync("rm", ["-rf", "--", path], { stdio: "ignore" });
    if (existsSync(path)) throw e;
  }
}

/**
 * removeTree without blocking the process: rm(1), which walks by descriptor, in a child. A
 * sandbox's state folder holds whatever its agent left (a flood of files takes seconds to
 * remove), and the trials beside it go on meanwhile. Throws only if the tree is still there.
 */
export async function removeTreeAsync(path: string): Promise<void> {
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return;
  const r = await runHostCommand(["rm", "-rf", "--", path], { timeoutMs: 600_000 });
  if (lstatSync(path, { throwIfNoEntry: false }) !== undefined) {
    const why = r.error?.message ?? (r.stderr.trim().split("\n")[0] || `rm exited ${r.status ?? r.signal}`);
    throw new Error(`could not remove ${path}: ${why}`);
  }
}
