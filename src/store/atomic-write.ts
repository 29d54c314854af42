import { closeSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs";

/**
 * Write-then-rename so that a reader (or a resumed job after kill -9) sees either the old file
 * or the complete new one, never a torn write.
 */
export function writeFileAtomic(path: string, data: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}
