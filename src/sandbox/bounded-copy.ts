import type { Stats } from "node:fs";
import { lstat, mkdir, open, opendir, readlink, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileTypeOf, SAFE_OPEN_FLAGS } from "./safe-read.js";

/** How much of a sandbox folder the host is willing to copy. */
export interface CopyLimits {
  /** Entries looked at (files, folders, links, anything); the walk stops at this many. */
  maxEntries: number;
  /** Bytes copied in all; a file that would pass it is skipped. */
  maxTotalBytes: number;
  /** Largest single file copied, by its size (st_size, so a sparse file counts in full). */
  maxFileBytes: number;
  /** Deepest folder nesting followed. */
  maxDepth: number;
}

/** Limits for /logs/agent and /logs/verifier (documented in docs/store.md). */
export const LOG_COPY_LIMITS: CopyLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 100 * 1024 * 1024,
  maxFileBytes: 50 * 1024 * 1024,
  maxDepth: 32,
};

/** At most this many skipped entries are listed one by one; the rest only counted. */
const MAX_LISTED = 200;
const CHUNK = 256 * 1024;

export interface SkippedEntry {
  path: string;
  type: string;
  reason: string;
  size?: number;
  /** Where a symbolic link points (recorded, never followed or recreated). */
  target?: string;
}

export interface CopyReport {
  /** false when the source did not exist or was not a real folder. */
  source_found: boolean;
  copied_files: number;
  copied_folders: number;
  copied_bytes: number;
  skipped_count: number;
  skipped: SkippedEntry[];
  /** Why the walk stopped early, or null when every entry was looked at. */
  stopped: string | null;
  limits: CopyLimits;
  duration_sec: number;
}

/**
 * Copies the folder `from` to `to` keeping regular files and folders only, within `limits`.
 * Symbolic links are recorded with their target, never followed or recreated; FIFOs, sockets and
 * devices are skipped (a FIFO is never opened, so the copy cannot block on one). Sizes are decided
 * from lstat before any byte is read and no file is read past its allowance, so a sparse file of
 * terabytes costs nothing. Problems with the source are recorded in the report, never thrown;
 * only failures to write the destination throw. `from` must not be a symlink (it is checked);
 * its ancestors are the caller's to trust.
 */
export async function copyTreeBounded(from: string, to: string, limits: CopyLimits): Promise<CopyReport> {
  const t0 = performance.now();
  const report: CopyReport = {
    source_found: false,
    copied_files: 0,
    copied_folders: 0,
    copied_bytes: 0,
    skipped_count: 0,
    skipped: [],
    stopped: null,
    limits,
    duration_sec: 0,
  };
  const skip = (entry: SkippedEntry): void => {
    report.skipped_count++;
    if (report.skipped.length < MAX_LISTED) report.skipped.push(entry);
  };
  const finish = (): CopyReport => {
    report.duration_sec = Math.round(performance.now() - t0) / 1000;
    return report;
  };

  let rootStat: Stats;
  try {
    rootStat = await lstat(from);
  } catch {
    return finish();
  }
  if (!rootStat.isDirectory()) {
    skip({ path: ".", type: fileTypeOf(rootStat), reason: "the folder itself is not a real folder" });
    return finish();
  }
  report.source_found = true;
  await mkdir(to, { recursive: true });

  let entries = 0;
  const stack: { rel: string; depth: number }[] = [{ rel: "", depth: 0 }];
  walk: while (stack.length > 0) {
    const { rel, depth } = stack.pop() ?? { rel: "", depth: 0 };
    let dir: Awaited<ReturnType<typeof opendir>>;
    try {
      dir = await opendir(join(from, rel));
    } catch (e) {
      skip({ path: rel || ".", type: "folder", reason: `unreadable (${codeOf(e)})` });
      continue;
    }
    try {
      for await (const d of dir) {
        if (entries >= limits.maxEntries) {
          report.stopped = `entry limit of ${limits.maxEntries} reached; the rest was not looked at`;
          break walk;
        }
        entries++;
        const relPath = rel === "" ? d.name : `${rel}/${d.name}`;
        await copyEntry(from, to, relPath, depth, limits, report, skip, stack);
      }
    } finally {
      await dir.close().catch(() => undefined);
    }
  }
  return finish();
}

async function copyEntry(
  from: string,
  to: string,
  rel: string,
  depth: number,
  limits: CopyLimits,
  report: CopyReport,
  skip: (e: SkippedEntry) => void,
  stack: { rel: string; depth: number }[],
): Promise<void> {
  const src = join(from, rel);
  let st: Stats;
  try {
    st = await lstat(src);
  } catch (e) {
    skip({ path: rel, type: "unknown", reason: `vanished or unreadable (${codeOf(e)})` });
    return;
  }
  if (st.isDirectory()) {
    if (depth + 1 > limits.maxDepth) {
      skip({ path: rel, type: "folder", reason: `deeper than ${limits.maxDepth} levels` });
      return;
    }
    await mkdir(join(to, rel), { recursive: true });
    report.copied_folders++;
    stack.push({ rel, depth: depth + 1 });
    return;
  }
  if (st.isSymbolicLink()) {
    const target = await readlink(src).catch(() => "?");
    skip({ path: rel, type: "symbolic link", reason: "links are not followed or copied", target });
    return;
  }
  if (!st.isFile()) {
    skip({ path: rel, type: fileTypeOf(st), reason: "only regular files are copied" });
    return;
  }
  if (st.size > limits.maxFileBytes) {
    skip({
      path: rel,
      type: "regular file",
      reason: `over the ${limits.maxFileBytes}-byte file limit`,
      size: st.size,
    });
    return;
  }
  if (report.copied_bytes + st.size > limits.maxTotalBytes) {
    skip({
      path: rel,
      type: "regular file",
      reason: `over the ${limits.maxTotalBytes}-byte total limit`,
      size: st.size,
    });
    return;
  }
  const copied = await copyFileCapped(src, join(to, rel), st.size);
  if (typeof copied === "string") {
    skip({ path: rel, type: "regular file", reason: copied, size: st.size });
    return;
  }
  report.copied_files++;
  report.copied_bytes += copied;
}

/**
 * Copies at most `allowance` bytes of one regular file; a string says why it was not copied.
 * Reading problems are the source's and come back as a string; writing problems are the host's
 * (disk full) and throw.
 */
async function copyFileCapped(src: string, dest: string, allowance: number): Promise<number | string> {
  let input: Awaited<ReturnType<typeof open>>;
  try {
    input = await open(src, SAFE_OPEN_FLAGS);
  } catch (e) {
    return `could not be opened (${codeOf(e)})`;
  }
  try {
    // The file was a regular file at lstat; check the very file that was opened too.
    const st = await input.stat().catch(() => null);
    if (st === null) return "could not be inspected";
    if (!st.isFile()) return `became a ${fileTypeOf(st)}`;
    const output = await open(dest, "w", 0o644);
    let result: number | string = 0;
    try {
      const buf = Buffer.alloc(Math.min(CHUNK, Math.max(1, allowance)));
      while (result < allowance) {
        const want = Math.min(buf.length, allowance - result);
        const got = await input.read(buf, 0, want, null).then(
          (r) => r.bytesRead,
          (e: unknown) => `could not be read (${codeOf(e)})`,
        );
        if (typeof got === "string" || got === 0) {
          if (typeof got === "string") result = got;
          break;
        }
        await output.write(buf, 0, got);
        result += got;
      }
    } finally {
      await output.close();
    }
    // No half copies: a file that failed midway is listed as skipped and not kept.
    if (typeof result === "string") await rm(dest, { force: true });
    return result;
  } finally {
    await input.close().catch(() => undefined);
  }
}

function codeOf(e: unknown): string {
  return typeof e === "object" && e !== null && "code" in e ? String(e.code) : String(e);
}
