import { mkdirSync, writeFileSync } from "node:fs";
import { checkOutFolder, fsProblem, UserError } from "../../core/index.js";

// Where world commands write (`render --out`, `export --out`, `augment --out`): a bad path is one
// line naming it, found before any work where it can be, never a stack trace from mkdir or write.

/** Runs a file-system write; an error that is the user's to fix becomes a UserError. */
export function userWrite<T>(what: string, write: () => T): T {
  try {
    return write();
  } catch (e) {
    const problem = fsProblem(e, what);
    if (problem === null) throw e;
    throw new UserError(`--out ${problem}`, { cause: e });
  }
}

/**
 * Makes an --out folder (and missing parents, as `mkdir -p` would: a fresh output tree is a
 * normal request) after checking that nothing on the way is a file.
 */
export function makeOutFolder(dir: string): void {
  checkOutFolder(dir, "--out");
  userWrite(dir, () => mkdirSync(dir, { recursive: true }));
}

/** Writes bytes to an --out file, refusing a path that cannot take them as one line. */
export function writeOutBytes(path: string, bytes: Uint8Array): void {
  userWrite(path, () => writeFileSync(path, bytes));
}
