import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";

/**
 * Write-then-rename so that a reader (or a resumed job after kill -9) sees either the old file
 * or the complete new one, never a torn write. A write that fails (a full disk) removes its
 * temporary file: it would otherwise hold on to the space and lie beside the result.
 */
export function writeFileAtomic(path: string, data: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    // Something already at the temporary name (a link a worker's result pack put in the trial
    // folder, aimed at a host file) is removed, never opened: "wx" does not follow a link.
    rmSync(tmp, { force: true });
    const fd = openSync(tmp, "wx");
    try {
      // writeSync may write only part of the data (a nearly full disk, a file-size limit) and
      // say so only by its return value; writeFileSync goes on until all is written or it fails.
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}
