import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { fsProblem, UserError } from "../core/index.js";
import { writeProblem } from "./write-error.js";

/**
 * Creates a jobs folder and the folders above it, one level at a time: Node's recursive mkdir
 * never returns for a path under /proc (it keeps retrying a parent it can neither find nor make).
 */
export function makeJobsDir(dir: string): void {
  const missing: string[] = [];
  let at = dir;
  while (!existsSync(at)) {
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  checkFolder(at, dir);
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (e) {
      // Another runner may have made it meanwhile.
      if ((e as { code?: unknown }).code === "EEXIST") {
        checkFolder(folder, dir);
        continue;
      }
      const problem = writeProblem(e, folder);
      if (problem === null) throw e;
      throw new UserError(`cannot create the jobs dir ${dir}: ${problem}`, { cause: e });
    }
  }
}

/**
 * A jobs folder that a command only reads (report, compare, export): it must exist, since
 * creating it would leave an empty folder behind a typo, and a missing one holds no job anyway.
 */
export function checkJobsDir(dir: string): void {
  try {
    statSync(dir);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new UserError(`no jobs dir ${dir}; pass --jobs-dir DIR, or run a job first`, { cause: e });
    }
    const problem = fsProblem(e, dir);
    if (problem === null) throw e;
    throw new UserError(problem, { cause: e });
  }
  checkFolder(dir, dir);
}

function checkFolder(path: string, jobsDir: string): void {
  if (statSync(path).isDirectory()) return;
  const what = path === jobsDir ? "the jobs dir" : `a folder above the jobs dir ${jobsDir}`;
  throw new UserError(`${path}: is a file, where ${what} is expected`);
}
