import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";

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
