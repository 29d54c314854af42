import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { InternalError } from "./errors.js";

const packageJsonSchema = z.object({ name: z.string().optional(), version: z.string().optional() }).loose();

/** The folder holding package.json named "longhaul", found by walking up from `start`. */
export function findPackageRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate) && readPackageJson(candidate)?.name === "longhaul") return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new InternalError(`no package.json named longhaul above ${start}`);
    dir = parent;
  }
}

/** The version field of longhaul's own package.json. */
export function packageVersion(root: string = findPackageRoot()): string {
  const version = readPackageJson(join(root, "package.json"))?.version;
  if (version === undefined) throw new InternalError(`no version in ${join(root, "package.json")}`);
  return version;
}

function readPackageJson(file: string): z.infer<typeof packageJsonSchema> | undefined {
  try {
    const parsed = packageJsonSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    // An unreadable or broken package.json is not ours; keep walking up.
    return undefined;
  }
}
