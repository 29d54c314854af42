import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { errorMessage, UserError } from "../core/index.js";

/**
 * Writes JSONL lines to a temporary file beside `path`, then moves it into place: a reader (or a
 * killed export) never leaves a half-written file there. Without `replace`, the move is a hard
 * link that fails if `path` appeared meanwhile, so an existing file is never overwritten. Lines
 * are written as `lines` yields them; an error while making one removes the temporary file.
 */
export async function writeLinesAtomic(
  path: string,
  lines: Iterable<string> | AsyncIterable<string>,
  replace: boolean,
): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}`);
  let fd: number | null = null;
  try {
    rmSync(tmp, { force: true });
    fd = openSync(tmp, "w");
    for await (const line of lines) writeSync(fd, `${line}\n`);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    if (replace) renameSync(tmp, path);
    else {
      linkSync(tmp, path);
      rmSync(tmp, { force: true });
    }
  } catch (e) {
    if (fd !== null) closeSync(fd);
    rmSync(tmp, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST" && !replace) throw new UserError(`${path} exists; pass --force to replace it`);
    if (code === "ENOENT" || code === "EACCES" || code === "ENOTDIR" || code === "EISDIR") {
      throw new UserError(`${path}: cannot write (${errorMessage(e)})`);
    }
    throw e;
  }
}
