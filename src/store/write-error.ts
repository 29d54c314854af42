import { fsProblem, InfraError } from "../core/index.js";

/** Why the disk refused a write, in words, for the errors a full or failing disk gives. */
const DISK_CODES: Record<string, string> = {
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
  EIO: "input/output error",
  EFBIG: "file too large",
  SQLITE_FULL: "no space left on device (the index)",
  SQLITE_IOERR: "input/output error (the index)",
  SQLITE_READONLY: "the index is read-only",
  SQLITE_CANTOPEN: "the index cannot be opened",
};

function diskProblem(e: unknown): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return null;
  const known = Object.keys(DISK_CODES).find((c) => code === c || code.startsWith(`${c}_`));
  return known === undefined ? null : (DISK_CODES[known] ?? null);
}

/** `path: why` for a write the machine refused (full, read-only, no permission…), else null. */
export function writeProblem(e: unknown, path: string): string | null {
  const disk = diskProblem(e);
  return disk === null ? fsProblem(e, path) : `${path}: ${disk}`;
}

/**
 * A write to the job store that the machine refused (disk full, quota, read-only, I/O error,
 * permissions). It is the infrastructure's, never the agent's, and not worth retrying at once:
 * the job stops with one line naming what could not be written, and `run --resume` goes on once
 * the cause is fixed. Any other error is returned as it is.
 */
export function storeWriteError(e: unknown, path: string, what: string): unknown {
  const problem = writeProblem(e, path);
  if (problem === null) return e;
  return new InfraError(
    `could not save ${what}: ${problem}; the trials saved before are kept, continue with run --resume once it is fixed`,
    { cause: e, retryable: false },
  );
}

/** Runs a store write, turning what the disk refused into storeWriteError's InfraError. */
export async function storeWrite<T>(path: string, what: string, write: () => T | Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    throw storeWriteError(e, path, what);
  }
}
