import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { errorMessage, fsProblem, InfraError, UserError } from "../core/index.js";

/** The file in a job folder whose lock says a process is running the job. */
export const JOB_LOCK_FILE = "run.lock";

/**
 * Every lock taken and not released. A connection nothing refers to is closed when it is garbage
 * collected, which would drop its lock silently while its process still runs the job.
 */
const HELD = new Set<BetterSqlite3.Database>();

/** How long taking the lock waits for a reader's probe (a holding runner refuses it after this). */
const LOCK_WAIT_MS = 250;

/** Held while a process runs a job; release it when the run ends (exiting releases it too). */
export interface JobLock {
  release(): void;
}

/**
 * Takes the job's run lock, or refuses at once when another process holds it. Two runners on one
 * job would each take the other's unfinished trials for abandoned ones (resume removes those
 * folders) and run every trial twice, one overwriting the other's files.
 *
 * The lock is an exclusive transaction on `<job>/run.lock`, an SQLite file: the kernel drops it
 * when its process ends in any way (kill -9 and crashes included), so a dead runner never leaves
 * a stale lock behind, and nothing has to guess from a process id whether its owner still lives.
 */
export function lockJob(jobDir: string, jobId: string): JobLock {
  const path = join(jobDir, JOB_LOCK_FILE);
  let db: BetterSqlite3.Database | undefined;
  try {
    mkdirSync(jobDir, { recursive: true });
    db = new BetterSqlite3(path);
    // Not 0: a reader asking whether the job runs (jobLockHeld) holds the file for an instant, and
    // a runner starting in that instant must wait it out, not be refused.
    db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
    db.exec("BEGIN EXCLUSIVE");
  } catch (e) {
    db?.close();
    throw lockError(e, path, jobId);
  }
  const held = db;
  HELD.add(held);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      HELD.delete(held);
      held.close();
    },
  };
}

/**
 * Whether a live process holds the job's run lock. The probe reads `run.lock` in one statement
 * without waiting, so it holds a shared lock for that instant only (a runner starting then waits
 * it out, see LOCK_WAIT_MS) and never blocks; it opens the file read-only and never creates it.
 * No file means no runner of this version ever started the job. When it cannot tell (the file
 * unreadable) it answers true, so a caller keeps to what the job's record says.
 */
export function jobLockHeld(jobDir: string): boolean {
  const path = join(jobDir, JOB_LOCK_FILE);
  if (!existsSync(path)) return false;
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    db.pragma("busy_timeout = 0");
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    return false;
  } catch {
    return true;
  } finally {
    db?.close();
  }
}

function lockError(e: unknown, path: string, jobId: string): Error {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))) {
    return new UserError(
      `job ${jobId} is being run by another longhaul process (it holds ${path}); wait for it to end or stop it, then run --resume`,
      { cause: e },
    );
  }
  const problem = fsProblem(e, path);
  if (problem !== null) return new UserError(`cannot lock job ${jobId}: ${problem}`, { cause: e });
  return new InfraError(`cannot lock job ${jobId} (${path}): ${errorMessage(e)}`, {
    cause: e,
    retryable: false,
  });
}
