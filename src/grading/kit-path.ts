import { existsSync } from "node:fs";
import { join } from "node:path";
import { InternalError } from "../core/errors.js";
import { findPackageRoot } from "../core/package-root.js";

export const GRADER_KIT_FILE = "grader-kit.mjs";
/** Where the runner mounts the kit folder inside the sandbox. */
export const GRADER_KIT_SANDBOX_DIR = "/longhaul/kit";

/**
 * The host folder that holds grader-kit.mjs. The compiler does not copy .mjs files, so a build
 * may place a copy under dist/grading/kit; otherwise the source copy under src/ is used. Both
 * resolve from the package root, so this works the same from src/ (tsx, vitest) and dist/.
 */
export function graderKitDir(root: string = findPackageRoot()): string {
  for (const dir of [join(root, "dist", "grading", "kit"), join(root, "src", "grading", "kit")]) {
    if (existsSync(join(dir, GRADER_KIT_FILE))) return dir;
  }
  throw new InternalError(`grader kit not found under ${root} (expected src/grading/kit/${GRADER_KIT_FILE})`);
}
