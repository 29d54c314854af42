import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { errorMessage, UserError } from "../core/index.js";

/**
 * Where this worker keeps the trial folders it is running: one folder per worker process
 * (`<host>.<pid>`), since workers of one user on one machine share the default cache, and a
 * cache on a shared disk may be seen by several machines. A worker killed with kill -9 leaves
 * its folder behind (log copies of up to 100 MiB each per trial); the next worker to start on the
 * cache removes the folders of processes that are gone, so repeated kills do not fill the disk.
 */
export function trialsDirOf(cacheDir: string): string {
  return join(cacheDir, "trials", `${hostname()}.${process.pid}`);
}

/** Makes the cache's folders, or says in one line why `cacheDir` cannot hold them. */
export function prepareCache(cacheDir: string, log: (line: string) => void): void {
  try {
    mkdirSync(trialsDirOf(cacheDir), { recursive: true });
    if (!statSync(cacheDir).isDirectory()) throw new Error("not a folder");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "ENOTDIR" || code === "EEXIST"
        ? "it (or a folder above it) is a file, not a folder"
        : errorMessage(e);
    throw new UserError(`--cache ${cacheDir}: cannot hold the worker's cache: ${why}`);
  }
  // Only this machine's processes can be asked whether they still run.
  const mine = `${hostname()}.`;
  const gone = readdirSync(join(cacheDir, "trials")).filter((n) => {
    const pid = n.startsWith(mine) ? n.slice(mine.length) : "";
    return /^\d+$/.test(pid) && !alive(Number(pid));
  });
  for (const n of gone) {
    try {
      const path = join(cacheDir, "trials", n);
      // An empty one is a worker that stopped before running anything (Redis refused it): no news.
      const had = readdirSync(path).length > 0;
      rmSync(path, { recursive: true, force: true });
      if (had) log(`removed the trial folders a stopped worker left in the cache (${n})`);
    } catch (e) {
      // Leftovers are only disk space: the worker starts anyway.
      log(`could not remove the trial folders a stopped worker left in the cache (${n}): ${errorMessage(e)}`);
    }
  }
}

/** Whether a process of that id runs here (one of another user's counts as running: kept). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
