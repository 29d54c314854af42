import {
  closeSync,
  type Dir,
  type Dirent,
  fstatSync,
  lstatSync,
  mkdirSync,
  opendirSync,
  openSync,
  readlinkSync,
  readSync,
  rmSync,
  type Stats,
  writeSync,
} from "node:fs";
import { lstat, mkdir } from "node:fs/promises";
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
 * devices are skipped (nothing is opened in a way that waits, so a FIFO cannot block the copy).
 * Sizes are decided from fstat of the opened file before any byte is read and no file is read
 * past its size, so a sparse file of terabytes costs nothing. Problems with the source are recorded in the report, never thrown;
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

  const copier = new Copier(Buffer.from(from), Buffer.from(to), limits, report, skip);
  await copier.walk();
  return finish();
}

/**
 * The copy uses synchronous file calls, which are several times faster than the promise API for
 * thousands of small files, and gives the event loop back every YIELD_MS so that other trials in
 * the same process keep running.
 */
const YIELD_MS = 10;

/** The longest path the kernel takes (PATH_MAX less its NUL). */
const HOST_PATH_MAX = 4095;

/**
 * Names are walked as the bytes they are: a name that is not UTF-8 (an agent's `printf 'a\377'`)
 * decodes to U+FFFD as a string, names no file, and would be lost. Paths in the report are those
 * bytes decoded lossily (U+FFFD), for reading only.
 */
class Copier {
  private entries = 0;
  private lastYield = performance.now();
  private readonly stack: { rel: Buffer; depth: number }[] = [{ rel: Buffer.alloc(0), depth: 0 }];

  constructor(
    private readonly from: Buffer,
    private readonly to: Buffer,
    private readonly limits: CopyLimits,
    private readonly report: CopyReport,
    private readonly skip: (e: SkippedEntry) => void,
  ) {}

  private async breathe(): Promise<void> {
    if (performance.now() - this.lastYield < YIELD_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.lastYield = performance.now();
  }

  async walk(): Promise<void> {
    while (this.stack.length > 0) {
      const { rel, depth } = this.stack.pop() ?? { rel: Buffer.alloc(0), depth: 0 };
      let dir: Dir;
      try {
        // Node names entries with Buffers under "buffer" (as readdir does); its types omit it.
        dir = opendirSync(under(this.from, rel), { bufferSize: 128, encoding: "buffer" as BufferEncoding });
      } catch (e) {
        this.skip({ path: shown(rel), type: "folder", reason: `unreadable (${codeOf(e)})` });
        continue;
      }
      try {
        for (let d = readNext(dir); d !== null; d = readNext(dir)) {
          if (this.entries >= this.limits.maxEntries) {
            this.report.stopped = `entry limit of ${this.limits.maxEntries} reached; the rest was not looked at`;
            return;
          }
          this.entries++;
          await this.entry(d, under(rel, d.name), depth);
          await this.breathe();
        }
      } catch (e) {
        if (!(e instanceof ListingError)) throw e;
        this.skip({ path: shown(rel), type: "folder", reason: `listing failed (${e.code})` });
      } finally {
        dir.closeSync();
      }
    }
  }

  private async entry(d: Dirent<Buffer>, rel: Buffer, depth: number): Promise<void> {
    const path = shown(rel);
    // The copy's folder is often deeper on the host than the source (a jobs folder's path is the
    // operator's): an entry the source can name but the copy cannot is the source's shape, not a
    // failing host disk. Before, its ENAMETOOLONG threw, and an agent's deep /logs/agent made its
    // trial an infrastructure error, which rates leave out.
    if (this.to.length + 1 + rel.length > HOST_PATH_MAX) {
      this.skip({
        path,
        type: d.isDirectory() ? "folder" : "unknown",
        reason: "path too long to save on the host",
      });
      return;
    }
    // The listing's type saves an lstat for the common case; the open re-checks it anyway.
    if (d.isFile()) return this.regular(rel);
    let st: Stats;
    try {
      st = lstatSync(under(this.from, rel));
    } catch (e) {
      this.skip({ path, type: "unknown", reason: `vanished or unreadable (${codeOf(e)})` });
      return;
    }
    if (st.isFile()) return this.regular(rel);
    if (st.isDirectory()) {
      if (depth + 1 > this.limits.maxDepth) {
        this.skip({ path, type: "folder", reason: `deeper than ${this.limits.maxDepth} levels` });
        return;
      }
      mkdirSync(under(this.to, rel), { recursive: true });
      this.report.copied_folders++;
      this.stack.push({ rel, depth: depth + 1 });
      return;
    }
    if (st.isSymbolicLink()) {
      let target = "?";
      try {
        target = shown(readlinkSync(under(this.from, rel), { encoding: "buffer" }));
      } catch {
        // The link itself is what matters; an unreadable target is shown as "?".
      }
      this.skip({ path, type: "symbolic link", reason: "links are not followed or copied", target });
      return;
    }
    this.skip({ path, type: fileTypeOf(st), reason: "only regular files are copied" });
  }

  /**
   * Copies one regular file. The open neither follows a link nor waits on a FIFO, and the size
   * is judged from fstat of the opened file before any byte is read; reading problems are the
   * source's (listed), writing problems are the host's (disk full) and throw.
   */
  private async regular(rel: Buffer): Promise<void> {
    const path = shown(rel);
    const skipFile = (reason: string, size?: number): void =>
      this.skip({ path, type: "regular file", reason, ...(size === undefined ? {} : { size }) });
    let fd: number;
    try {
      fd = openSync(under(this.from, rel), SAFE_OPEN_FLAGS);
    } catch (e) {
      const code = codeOf(e);
      if (code === "ELOOP") this.skip({ path, type: "symbolic link", reason: "links are not followed" });
      else skipFile(`could not be opened (${code})`);
      return;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) {
        this.skip({ path, type: fileTypeOf(st), reason: "only regular files are copied" });
        return;
      }
      if (st.size > this.limits.maxFileBytes) {
        return skipFile(`over the ${this.limits.maxFileBytes}-byte file limit`, st.size);
      }
      if (this.report.copied_bytes + st.size > this.limits.maxTotalBytes) {
        return skipFile(`over the ${this.limits.maxTotalBytes}-byte total limit`, st.size);
      }
      const copied = await this.copyCapped(fd, under(this.to, rel), st.size);
      if (typeof copied === "string") return skipFile(copied, st.size);
      this.report.copied_files++;
      this.report.copied_bytes += copied;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Writes at most `allowance` bytes of an open file to `dest`: a file that grew since fstat is
   * cut at its size then. A string says why it was not copied; no half copy is kept.
   */
  private async copyCapped(fd: number, dest: Buffer, allowance: number): Promise<number | string> {
    const out = openSync(dest, "w", 0o644);
    let done = 0;
    let failure: string | null = null;
    try {
      const buf = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, allowance)));
      while (done < allowance) {
        let n: number;
        try {
          n = readSync(fd, buf, 0, Math.min(buf.length, allowance - done), null);
        } catch (e) {
          failure = `could not be read (${codeOf(e)})`;
          break;
        }
        if (n === 0) break;
        writeSync(out, buf, 0, n);
        done += n;
        if (done < allowance) await this.breathe();
      }
    } finally {
      closeSync(out);
    }
    if (failure === null) return done;
    rmSync(dest, { force: true });
    return failure;
  }
}

/** A failure to list a folder (as opposed to one of the host's own write failures). */
class ListingError extends Error {
  constructor(readonly code: string) {
    super(`listing failed: ${code}`);
  }
}

const SLASH = Buffer.from("/");

/** `rel` below `root`, as bytes; an empty `rel` is `root` itself. */
function under(root: Buffer, rel: Buffer): Buffer {
  if (rel.length === 0) return root;
  return root.length === 0 ? rel : Buffer.concat([root, SLASH, rel]);
}

/** A path for the report: its bytes decoded lossily (a name that is not UTF-8 shows U+FFFD). */
function shown(rel: Buffer): string {
  return rel.length === 0 ? "." : rel.toString("utf8");
}

function readNext(dir: Dir): Dirent<Buffer> | null {
  try {
    // Opened with `encoding: "buffer"`: the names are bytes, though Dir's type says strings.
    return dir.readSync() as unknown as Dirent<Buffer> | null;
  } catch (e) {
    throw new ListingError(codeOf(e));
  }
}

function codeOf(e: unknown): string {
  return typeof e === "object" && e !== null && "code" in e ? String(e.code) : String(e);
}
