import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { UserError } from "../core/index.js";

/**
 * A folder as one byte string: every entry in sorted path order with its kind, mode and bytes,
 * length-prefixed, so the same tree always packs to the same bytes (and the same sha256) on any
 * machine. Times and owners are left out on purpose: they differ between checkouts.
 *
 *   "LHPK1\n" then per entry: kind (1 byte: d, f, l) · mode (u32) · path length (u32) · path ·
 *   data length (u32) · data (file bytes, or the symlink's target)
 */
const MAGIC = Buffer.from("LHPK1\n");

/** Names never packed: editor and OS droppings, as in the task checksum. */
const IGNORED = new Set([".git", ".DS_Store", "__pycache__", "Thumbs.db"]);

interface PackEntry {
  kind: "d" | "f" | "l";
  mode: number;
  path: Buffer;
  /**
   * packDir: the order key, the path as text, so a tree of UTF-8 names packs as it always has.
   * readPack: the path's bytes as latin1 (one character per byte), to compare paths by.
   */
  key: string;
  data: Buffer;
}

const SLASH = Buffer.from("/");

/**
 * Default cap on a trial's result pack (`worker --max-result-mib`, `run --queue --max-result-mib`).
 * A pack is one Redis value (at most 512 MiB) that the coordinator holds whole in memory to
 * unpack; half of Redis's limit leaves room for recordings while keeping both sides' memory bounded.
 */
export const DEFAULT_MAX_RESULT_MIB = 256;
/** Redis refuses a value past 512 MiB: a larger cap could never be met. */
export const MAX_RESULT_MIB = 512;

/** The cap in bytes of a `--max-result-mib` value (the default when absent); out of range is a UserError. */
export function resultCapBytes(mibValue: number | undefined): number {
  const v = mibValue ?? DEFAULT_MAX_RESULT_MIB;
  if (!Number.isInteger(v) || v < 1 || v > MAX_RESULT_MIB)
    throw new UserError(`--max-result-mib must be a whole number from 1 to ${MAX_RESULT_MIB}, got ${v}`);
  return v * 2 ** 20;
}

/** A folder whose pack would be larger than the cap: refused while walking, before it is held whole. */
export class PackTooLargeError extends UserError {
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(
      `its pack is over ${mib(limit)} MiB (the cap on a result pack, --max-result-mib), ${mib(bytes)} MiB counted so far`,
    );
  }
}

function mib(bytes: number): string {
  return String(Number((bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 3 : 1)));
}

export function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Names are walked and packed as the bytes they are: a trial's saved logs can hold a name that is
 * not UTF-8 (the log copy keeps it), and as a string it would decode to U+FFFD and name no file.
 */
export function packDir(dir: string, limits: { maxBytes?: number } = {}): Buffer {
  const entries: PackEntry[] = [];
  const max = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  // The pack's size as it grows: files are counted by their size before they are read, so a
  // folder past the cap is refused without ever being held whole.
  let total = MAGIC.length;
  const count = (bytes: number): void => {
    total += bytes;
    if (total > max) throw new PackTooLargeError(total, max);
  };
  const walk = (abs: Buffer, rel: Buffer): void => {
    const names = readdirSync(abs, { encoding: "buffer" }).filter((n) => !IGNORED.has(n.toString("utf8")));
    for (const name of names) {
      const childAbs = Buffer.concat([abs, SLASH, name]);
      const childRel = rel.length === 0 ? name : Buffer.concat([rel, SLASH, name]);
      const st = lstatSync(childAbs);
      const mode = st.mode & 0o777;
      const entry = { mode, path: childRel, key: childRel.toString("utf8") };
      if (st.isSymbolicLink()) {
        const data = readlinkSync(childAbs, { encoding: "buffer" });
        count(13 + childRel.length + data.length);
        entries.push({ ...entry, kind: "l", data });
      } else if (st.isDirectory()) {
        count(13 + childRel.length);
        entries.push({ ...entry, kind: "d", data: Buffer.alloc(0) });
        walk(childAbs, childRel);
      } else if (st.isFile()) {
        count(13 + childRel.length + st.size);
        const data = readFileSync(childAbs);
        // A file that grew since it was looked at is counted as it was read.
        count(data.length - st.size);
        entries.push({ ...entry, kind: "f", data });
      }
    }
  };
  walk(Buffer.from(dir), Buffer.alloc(0));
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : Buffer.compare(a.path, b.path)));
  const parts: Buffer[] = [MAGIC];
  for (const e of entries) {
    const head = Buffer.alloc(13);
    head.write(e.kind, 0, "latin1");
    head.writeUInt32BE(e.mode, 1);
    head.writeUInt32BE(e.path.length, 5);
    head.writeUInt32BE(e.data.length, 9);
    parts.push(head, e.path, e.data);
  }
  return Buffer.concat(parts);
}

/** Bounds of an unpack; a pack past them is refused before anything is written. */
export interface UnpackLimits {
  /** Entries (files, folders, links) in the pack. */
  maxEntries: number;
  /**
   * Whether symbolic links are recreated. A trial folder holds none (its log copies record links
   * instead of making them), and one a worker sends, pointing at a host file, would be followed
   * by whatever reads the folder later (an export, a report).
   */
  links: boolean;
}

/**
 * Writes a pack into `dir` (which must be empty or absent). Packs come from other machines (a
 * result pack from a worker that may be hostile or broken), so the whole pack is checked before
 * anything is written: a path that could leave `dir` — absolute, `..`, under a symlink the pack
 * itself makes, or named twice (a file or folder entry at a link's own path would be written, or
 * chmod-ed, through the link) — an unknown kind, a truncated pack or one past `limits` is refused.
 * Only permission bits are applied: no set-user-id file lands on the host.
 */
export function unpackTo(bytes: Buffer, dir: string, limits?: UnpackLimits): void {
  const entries = readPack(bytes, limits);
  mkdirSync(dir, { recursive: true });
  // Whatever is already there (a link, say) was not checked against the rules of readPack.
  if (readdirSync(dir).length > 0) throw new UserError(`cannot unpack into ${dir}: it is not empty`);
  const root = Buffer.from(join(dir));
  const dirModes: [Buffer, number][] = [];
  for (const e of entries) {
    const target = Buffer.concat([root, SLASH, e.path]);
    if (e.kind === "d") {
      mkdirSync(target, { recursive: true });
      dirModes.push([target, e.mode]);
    } else if (e.kind === "f") {
      // "wx": never opens what is already there (a folder made as a parent of an earlier entry).
      writeFileSync(target, e.data, { mode: e.mode, flag: "wx" });
      chmodSync(target, e.mode);
    } else {
      symlinkSync(e.data, target);
    }
  }
  // Folder modes last: a read-only folder would refuse the files written into it.
  for (const [d, mode] of dirModes.reverse()) chmodSync(d, mode | 0o700);
}

/** A pack's entries, every one checked (see unpackTo); modes cut to their permission bits. */
function readPack(bytes: Buffer, limits: UnpackLimits | undefined): PackEntry[] {
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new UserError("not a longhaul pack");
  const entries: PackEntry[] = [];
  /** Paths by their bytes (latin1 keeps every byte as one character), links among them. */
  const seen = new Set<string>();
  const links = new Set<string>();
  let at = MAGIC.length;
  while (at < bytes.length) {
    if (at + 13 > bytes.length) throw new UserError("truncated pack");
    if (limits !== undefined && entries.length >= limits.maxEntries)
      throw new UserError(`pack holds more than ${limits.maxEntries} entries; refused`);
    const kind = bytes.toString("latin1", at, at + 1);
    const mode = bytes.readUInt32BE(at + 1) & 0o777;
    const pathLen = bytes.readUInt32BE(at + 5);
    const dataLen = bytes.readUInt32BE(at + 9);
    at += 13;
    if (at + pathLen + dataLen > bytes.length) throw new UserError("truncated pack");
    // Paths are bytes (see packDir); as text (U+FFFD for what is not UTF-8) only in messages.
    const pathBytes = bytes.subarray(at, at + pathLen);
    const path = pathBytes.toString("utf8");
    const data = bytes.subarray(at + pathLen, at + pathLen + dataLen);
    at += pathLen + dataLen;
    const segments = splitBytes(pathBytes);
    const bad = (seg: Buffer): boolean => seg.length === 0 || seg.equals(DOT) || seg.equals(DOTDOT);
    if (pathBytes.length === 0 || pathBytes[0] === SLASH[0] || segments.some(bad)) {
      throw new UserError(`pack entry ${JSON.stringify(path)} would leave its folder`);
    }
    if (kind !== "d" && kind !== "f" && kind !== "l")
      throw new UserError(`pack entry ${JSON.stringify(path)} has unknown kind ${JSON.stringify(kind)}`);
    const key = latin1Path(segments);
    if (seen.has(key)) throw new UserError(`pack entry ${JSON.stringify(path)} appears twice`);
    seen.add(key);
    if (kind === "l" && limits !== undefined && !limits.links)
      throw new UserError(
        `pack entry ${JSON.stringify(path)} is a symbolic link, which a trial folder never holds`,
      );
    if (kind === "l") links.add(key);
    entries.push({ kind, mode, path: pathBytes, key, data });
  }
  // A link anywhere in the pack, before or after, must not lead any entry's path.
  for (const e of entries) {
    const segments = e.key.split("/");
    for (let i = 1; i < segments.length; i++) {
      if (links.has(segments.slice(0, i).join("/")))
        throw new UserError(`pack entry ${JSON.stringify(e.path.toString("utf8"))} lies under a symlink`);
    }
  }
  return entries;
}

const DOT = Buffer.from(".");
const DOTDOT = Buffer.from("..");

/** A path's segments, split at each "/" byte. */
function splitBytes(path: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && path[i] !== SLASH[0]) continue;
    out.push(path.subarray(start, i));
    start = i + 1;
  }
  return out;
}

/** A path's bytes as a string key, one character per byte ("/" stays "/"). */
function latin1Path(segments: readonly Buffer[]): string {
  return segments.map((seg) => seg.toString("latin1")).join("/");
}
