import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { UserError } from "../../core/index.js";

/** Where the follow agent takes the root's solution from: one folder, or a dataset of roots. */
export interface FollowSolver {
  solverDir: string | null;
  rootsDir: string | null;
}

/** The follow agent's options (`root=`, `solver=` or `roots=`); a UserError when none is given. */
export function parseFollowOptions(options: Record<string, string>): FollowSolver {
  const solver = options.solver ?? (options.root !== undefined ? join(options.root, "solution") : undefined);
  const roots = options.roots?.trim() ? resolve(options.roots) : null;
  if ((solver === undefined || solver.trim() === "") && roots === null) {
    throw new UserError(
      "the follow agent needs --agent-opt root=ROOT_TASK_DIR, solver=DIR or roots=DATASET_DIR",
    );
  }
  return {
    solverDir: solver === undefined || solver.trim() === "" ? null : resolve(solver),
    rootsDir: roots,
  };
}

/** The solution folder for `taskName`: the given one, or the matching root's of `roots`. */
export function solverFor(s: FollowSolver, taskName: string): string | null {
  if (s.solverDir !== null) return s.solverDir;
  if (s.rootsDir === null || !existsSync(s.rootsDir)) return null;
  const match = readdirSync(s.rootsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && (taskName === e.name || taskName.startsWith(`${e.name}-`)))
    .map((e) => e.name)
    .sort((a, b) => b.length - a.length)[0];
  return match === undefined ? null : join(s.rootsDir, match, "solution");
}
