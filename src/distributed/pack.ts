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
  path: string;
  data: Buffer;
}

export function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function packDir(dir: string): Buffer {
  const entries: PackEntry[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).filter((n) => !IGNORED.has(n))) {
      const childAbs = join(abs, name);
      const childRel = rel === "" ? name : `${rel}/${name}`;
      const st = lstatSync(childAbs);
      const mode = st.mode & 0o777;
      if (st.isSymbolicLink()) {
        entries.push({ kind: "l", mode, path: childRel, data: Buffer.from(readlinkSync(childAbs)) });
      } else if (st.isDirectory()) {
        entries.push({ kind: "d", mode, path: childRel, data: Buffer.alloc(0) });
        walk(childAbs, childRel);
      } else if (st.isFile()) {
        entries.push({ kind: "f", mode, path: childRel, data: readFileSync(childAbs) });
      }
    }
  };
  walk(dir, "");
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const parts: Buffer[] = [MAGIC];
  for (const e of entries) {
    const path = Buffer.from(e.path, "utf8");
    const head = Buffer.alloc(13);
    head.write(e.kind, 0, "latin1");
    head.writeUInt32BE(e.mode, 1);
    head.writeUInt32BE(path.length, 5);
    head.writeUInt32BE(e.data.length, 9);
    parts.push(head, path, e.data);
  }
  return Buffer.concat(parts);
}

/**
 * Writes a pack into `dir` (which must be empty or absent). Packs come from other machines, so a
 * path that could leave `dir` — absolute, `..`, or under a symlink the pack itself created — is
 * refused rather than written.
 */
export function unpackTo(bytes: Buffer, dir: string): void {
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new UserError("not a longhaul pack");
  mkdirSync(dir, { recursive: true });
  const links = new Set<string>();
  const dirModes: [string, number][] = [];
  let at = MAGIC.length;
  while (at < bytes.length) {
    if (at + 13 > bytes.length) throw new UserError("truncated pack");
    const kind = bytes.toString("latin1", at, at + 1);
    const mode = bytes.readUInt32BE(at + 1);
    const pathLen = bytes.readUInt32BE(at + 5);
    const dataLen = bytes.readUInt32BE(at + 9);
    at += 13;
    if (at + pathLen + dataLen > bytes.length) throw new UserError("truncated pack");
    const path = bytes.toString("utf8", at, at + pathLen);
    const data = bytes.subarray(at + pathLen, at + pathLen + dataLen);
    at += pathLen + dataLen;
    const segments = path.split("/");
    if (path === "" || path.startsWith("/") || segments.some((s) => s === "" || s === "." || s === "..")) {
      throw new UserError(`pack entry ${JSON.stringify(path)} would leave its folder`);
    }
    for (let i = 1; i < segments.length; i++) {
      if (links.has(segments.slice(0, i).join("/"))) {
        throw new UserError(`pack entry ${JSON.stringify(path)} lies under a symlink`);
      }
    }
    const target = join(dir, ...segments);
    if (kind === "d") {
      mkdirSync(target, { recursive: true });
      dirModes.push([target, mode]);
    } else if (kind === "f") {
      writeFileSync(target, data, { mode });
      chmodSync(target, mode);
    } else if (kind === "l") {
      symlinkSync(data.toString("utf8"), target);
      links.add(path);
    } else {
      throw new UserError(`pack entry ${JSON.stringify(path)} has unknown kind ${JSON.stringify(kind)}`);
    }
  }
  // Folder modes last: a read-only folder would refuse the files written into it.
  for (const [d, mode] of dirModes.reverse()) chmodSync(d, mode | 0o700);
}
