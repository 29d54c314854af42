import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { InternalError } from "../core/errors.js";

export const GRADER_KIT_FILE = "grader-kit.mjs";
/** Where the runner mounts the kit folder inside the sandbox. */
export const GRADER_KIT_SANDBOX_DIR = "/longhaul/kit";

const packageJsonSchema = z.object({ name: z.string().optional() }).loose();

/** The folder holding package.json named "longhaul", found by walking up from `start`. */
export function findPackageRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate) && packageName(candidate) === "longhaul") return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new InternalError(`no package.json named longhaul above ${start}`);
    dir = parent;
  }
}

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

function packageName(file: string): string | undefined {
  try {
    const parsed = packageJsonSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    return parsed.success ? parsed.data.name : undefined;
  } catch {
    // An unreadable or broken package.json is not ours; keep walking up.
    return undefined;
  }
}
