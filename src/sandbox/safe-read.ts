import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from "node:fs";
import { join } from "node:path";

/** Largest reward file the host reads: rewards are a few numbers, anything bigger is an attack. */
export const REWARD_FILE_MAX_BYTES = 1024 * 1024;

/**
 * Flags for opening a file a sandbox could have planted: never follow a final symlink (it could
 * point at /proc/self/environ or /dev/zero on the host), never wait for a writer on a FIFO, never
 * adopt a terminal.
 */
export const SAFE_OPEN_FLAGS =
  constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

export type SafeRead =
  | { kind: "ok"; text: string }
  | { kind: "missing" }
  | { kind: "rejected"; reason: string };

/** "symbolic link", "FIFO", … for messages about a file that is not a regular file. */
export function fileTypeOf(st: Stats): string {
  if (st.isFile()) return "regular file";
  if (st.isDirectory()) return "folder";
  if (st.isSymbolicLink()) return "symbolic link";
  if (st.isFIFO()) return "FIFO";
  if (st.isSocket()) return "socket";
  if (st.isCharacterDevice()) return "character device";
  if (st.isBlockDevice()) return "block device";
  return "special file";
}

function codeOf(e: unknown): string {
  return typeof e === "object" && e !== null && "code" in e ? String(e.code) : String(e);
}

/**
 * Reads `rel` (a relative path) under the host folder `root` as UTF-8, following no symlink at any
 * component below `root`, reading only a regular file of at most `maxBytes`. `root` itself must be
 * a real folder; its ancestors are the caller's to trust (host-created folders the sandbox cannot
 * replace). Callers use it after every sandbox process is dead, so nothing changes between the
 * checks; the final open is safe on its own anyway (O_NOFOLLOW, then fstat on the open file).
 * Never throws: anything unusable is `rejected` with a reason fit for a grading message.
 */
export function readFileUnder(root: string, rel: string, maxBytes: number): SafeRead {
  const parts = rel.split("/").filter((s) => s !== "");
  if (parts.length === 0 || parts.some((s) => s === "." || s === "..")) {
    return { kind: "rejected", reason: `${rel}: not a plain relative path` };
  }
  let path = root;
  for (const [i, part] of [undefined, ...parts.slice(0, -1)].entries()) {
    if (part !== undefined) path = join(path, part);
    let st: Stats;
    try {
      st = lstatSync(path);
    } catch (e) {
      if (codeOf(e) === "ENOENT" || codeOf(e) === "ENOTDIR") return { kind: "missing" };
      return { kind: "rejected", reason: `${rel}: cannot inspect ${shown(parts, i)} (${codeOf(e)})` };
    }
    if (!st.isDirectory()) {
      return { kind: "rejected", reason: `${rel}: ${shown(parts, i)} is a ${fileTypeOf(st)}, not a folder` };
    }
  }
  path = join(path, parts[parts.length - 1] ?? "");

  let fd: number;
  try {
    fd = openSync(path, SAFE_OPEN_FLAGS);
  } catch (e) {
    const code = codeOf(e);
    if (code === "ENOENT") return { kind: "missing" };
    if (code === "ELOOP")
      return { kind: "rejected", reason: `${rel} is a symbolic link, not a regular file` };
    return { kind: "rejected", reason: `${rel} could not be opened (${code})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      return { kind: "rejected", reason: `${rel} is a ${fileTypeOf(st)}, not a regular file` };
    if (st.size > maxBytes) {
      return { kind: "rejected", reason: `${rel} is ${st.size} bytes, over the ${maxBytes}-byte limit` };
    }
    // One byte more than the cap tells a file that grew after fstat from one that is exactly full.
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) return { kind: "rejected", reason: `${rel} is over the ${maxBytes}-byte limit` };
    return { kind: "ok", text: buf.subarray(0, got).toString("utf8") };
  } catch (e) {
    return { kind: "rejected", reason: `${rel} could not be read (${codeOf(e)})` };
  } finally {
    closeSync(fd);
  }
}

/** The part of the path checked at step i: "the root folder" or the first i components. */
function shown(parts: readonly string[], i: number): string {
  return i === 0 ? "its root folder" : parts.slice(0, i).join("/");
}
