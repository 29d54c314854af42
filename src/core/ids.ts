import { randomBytes } from "node:crypto";
import { UserError } from "./errors.js";

/** A sortable id: UTC timestamp plus random suffix, safe as a folder name. */
export function newJobId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

/** Names used as folder names must not escape their parent. */
export function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "_");
}

const JOB_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * A job name is its folder name under the jobs folder, used as given (so `--resume --job NAME`
 * finds it again): only characters a folder name keeps, and never a path that leaves the folder.
 */
export function checkJobName(name: string): string {
  if (!JOB_NAME.test(name)) {
    throw new UserError(
      `job name ${JSON.stringify(name)} is not allowed: use 1 to 128 letters, digits, . _ or -, not starting with .`,
    );
  }
  return name;
}
