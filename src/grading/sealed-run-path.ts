import { existsSync } from "node:fs";
import { join } from "node:path";
import { InternalError } from "../core/errors.js";
import { findPackageRoot } from "../core/package-root.js";

/**
 * The sealed runner (docs/grader-kit.md, "Sealed runs"): the one helper the verifier gets from
 * the install rather than from the task, because it is a sandbox and not grading code. Without it
 * (plain Harbor) the verifier kit runs the agent's programs unsealed and says so in the details.
 */
export const SEALED_RUN_FILE = "sealed-run";
/** Where the runner mounts the sealed runner's folder inside the sandbox. */
export const SEALED_RUN_SANDBOX_DIR = "/longhaul/kit";

/**
 * The host folder that holds sealed-run. A build may place a copy under dist/grading/kit;
 * otherwise the source copy under src/ is used. Both resolve from the package root, so this works
 * the same from src/ (tsx, vitest) and dist/.
 */
export function sealedRunDir(root: string = findPackageRoot()): string {
  for (const dir of [join(root, "dist", "grading", "kit"), join(root, "src", "grading", "kit")]) {
    if (existsSync(join(dir, SEALED_RUN_FILE))) return dir;
  }
  throw new InternalError(
    `sealed runner not found under ${root} (expected src/grading/kit/${SEALED_RUN_FILE})`,
  );
}
