import { readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Trial state folders are `longhaul-<runner pid>-<trial id>-<time>` in the temp folder (run-trial.ts). */
const STATE_DIR = /^longhaul-(\d+)-.+$/;

/** True when a process with this pid exists (EPERM means it exists but belongs to someone else). */
export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the trial state folders left by runners that died without cleaning up (kill -9, power
 * loss). A folder whose runner is still alive, this process included, is left alone, so jobs
 * running side by side never lose each other's sandboxes. Returns the folders removed.
 */
export function sweepStaleState(
  dir: string = tmpdir(),
  isAlive: (pid: number) => boolean = pidAlive,
): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = STATE_DIR.exec(name);
    if (m?.[1] === undefined) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    const path = join(dir, name);
    try {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Another runner sweeping at the same moment, or a file we may not remove: not worth failing a job for.
    }
  }
  return removed;
}
