import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { errorMessage, UserError } from "../core/index.js";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

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
  // Interrupted (Ctrl-C, a kill), the process still ends by the signal, but without the partial
  // temporary file: a large export would leave gigabytes behind under a hidden name.
  const onSignal = (signal: NodeJS.Signals): void => {
    stopWatching();
    rmSync(tmp, { force: true });
    process.kill(process.pid, signal);
  };
  const stopWatching = (): void => {
    for (const s of SIGNALS) process.off(s, onSignal);
  };
  for (const s of SIGNALS) process.once(s, onSignal);
  try {
    rmSync(tmp, { force: true });
    fd = openSync(tmp, "w");
    for await (const line of lines) {
      writeSync(fd, `${line}\n`);
      // Lets a signal's handler run between lines (lines made from cached data never yield).
      await new Promise<void>((done) => setImmediate(done));
    }
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
  } finally {
    stopWatching();
  }
}
