import { existsSync } from "node:fs";
import { join } from "node:path";
import { graderKitDir } from "../grading/kit-path.js";
import type { Mount } from "../sandbox/types.js";
import type { Task } from "../task/types.js";
import { packageRoot } from "./package-root.js";

/**
 * What the verifier sees beyond the agent's sandbox: the task's tests (read-only at /tests), the
 * grader kit at /longhaul/kit and longhaul's compiled library at /longhaul/dist (for the stress
 * generators). None of these is ever mounted while an agent process exists.
 */
export function verifierMounts(task: Task): Mount[] {
  const mounts: Mount[] = [{ hostPath: task.paths.tests, sandboxPath: "/tests", readonly: true }];
  mounts.push({ hostPath: graderKitDir(), sandboxPath: "/longhaul/kit", readonly: true });
  const dist = join(packageRoot(), "dist");
  if (existsSync(dist)) mounts.push({ hostPath: dist, sandboxPath: "/longhaul/dist", readonly: true });
  return mounts;
}

export function verifierEnv(task: Task, seed: number): Record<string, string> {
  return {
    LONGHAUL_SEED: String(seed),
    LONGHAUL_VERIFIER_DIR: "/logs/verifier",
    LONGHAUL_WORKDIR: task.config.environment.workdir,
    LONGHAUL_KIT: "/longhaul/kit/grader-kit.mjs",
    LONGHAUL_STRESS: "/longhaul/dist/stress/index.js",
  };
}
