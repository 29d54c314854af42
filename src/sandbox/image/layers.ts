import {
  chmodSync,
  type Dirent,
  lchownSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  type Stats,
} from "node:fs";
import { join } from "node:path";

const WHITEOUT = ".wh.";
const OPAQUE = ".wh..wh..opq";

/**
 * Applies one image layer, already extracted into `layer` (same file system as `rootfs`), on
 * top of `rootfs`, with OCI whiteout semantics: `.wh.NAME` deletes NAME from the layers below,
 * `.wh..wh..opq` empties its folder of what the layers below put there. Entries are moved, not
 * copied. A folder over a folder merges; anything else replaces what was there, never following
 * a symbolic link a lower layer left (a layer writing through `/etc -> /host` stays inside).
 */
export function applyLayer(layer: string, rootfs: string): void {
  mergeDir(layer, rootfs);
}

function mergeDir(src: string, dst: string): void {
  const entries = readdirSync(src, { withFileTypes: true });
  if (entries.some((e) => e.name === OPAQUE)) {
    for (const n of readdirSync(dst)) rmSync(join(dst, n), { recursive: true, force: true });
  }
  for (const e of entries) {
    if (e.name === OPAQUE || !e.name.startsWith(WHITEOUT)) continue;
    rmSync(join(dst, e.name.slice(WHITEOUT.length)), { recursive: true, force: true });
  }
  for (const e of entries) {
    if (e.name.startsWith(WHITEOUT)) continue;
    mergeEntry(e, join(src, e.name), join(dst, e.name));
  }
}

function mergeEntry(e: Dirent, s: string, d: string): void {
  const below = statOrNull(d);
  if (e.isDirectory()) {
    // A new folder may still hold whiteouts (an opaque marker when a folder was deleted and
    // made again), so it is walked like a merge rather than moved whole.
    if (below === null || !below.isDirectory()) {
      if (below !== null) rmSync(d, { recursive: true, force: true });
      mkdirSync(d);
    }
    mergeDir(s, d);
    copyMeta(lstatSync(s), d);
    return;
  }
  if (below !== null) rmSync(d, { recursive: true, force: true });
  renameSync(s, d);
}

function copyMeta(st: Stats, d: string): void {
  lchownSync(d, st.uid, st.gid);
  chmodSync(d, st.mode & 0o7777);
  lutimesSync(d, st.atime, st.mtime);
}

function statOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}
