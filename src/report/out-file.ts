import { accessSync, constants, type Stats, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fsProblem, UserError } from "../core/index.js";

/**
 * Refuses an --out path that cannot take a file (a folder, a missing or unwritable parent) before
 * a command does its work: finding out only when writing would waste the work, or half-write.
 */
export function checkOutFile(path: string): void {
  const parent = dirname(resolve(path));
  if (stat(path)?.isDirectory() === true) throw cannotWrite(path, "it is a folder");
  const folder = stat(parent);
  if (folder === undefined) throw cannotWrite(path, `no such folder ${parent}`);
  if (!folder.isDirectory()) throw cannotWrite(path, `${parent} is not a folder`);
  try {
    accessSync(parent, constants.W_OK);
  } catch {
    throw cannotWrite(path, `permission denied in ${parent}`);
  }
}

/** Writes a report to its --out file; a file-system error there is the user's to fix. */
export function writeOutFile(path: string, body: string): void {
  try {
    writeFileSync(path, body);
  } catch (e) {
    const problem = fsProblem(e, path);
    if (problem === null) throw e;
    throw new UserError(problem, { cause: e });
  }
}

/** The path's stat, or undefined where nothing is (or a file stands in for a folder above it). */
function stat(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    const problem = fsProblem(e, path);
    if (problem === null) throw e;
    throw new UserError(problem, { cause: e });
  }
}

function cannotWrite(path: string, why: string): UserError {
  return new UserError(`${path}: cannot write (${why})`);
}
