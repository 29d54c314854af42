import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { InternalError } from "./errors.js";

// Read on every CLI start (`--version`): two string fields checked by hand, because loading zod
// would cost more than the rest of the start-up.
interface PackageFields {
  name?: string;
  version?: string;
}

/** The folder holding package.json named "longhaul", found by walking up from `start`. */
export function findPackageRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate) && readPackageFields(candidate)?.name === "longhaul") return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new InternalError(`no package.json named longhaul above ${start}`);
    dir = parent;
  }
}

/** The version field of longhaul's own package.json. */
export function packageVersion(root: string = findPackageRoot()): string {
  const file = join(root, "package.json");
  const version = readPackageFields(file)?.version;
  if (version === undefined) throw new InternalError(`no version in ${file}`);
  return version;
}

function readPackageFields(file: string): PackageFields | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    // An unreadable or broken package.json is not ours; keep walking up.
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object") return undefined;
  const fields: PackageFields = {};
  if ("name" in parsed && typeof parsed.name === "string") fields.name = parsed.name;
  if ("version" in parsed && typeof parsed.version === "string") fields.version = parsed.version;
  return fields;
}
