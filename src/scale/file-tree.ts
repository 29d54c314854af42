import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  type Stats,
  writeFileSync,
} from "node:fs";
import { dirname, join, posix } from "node:path";
import { UserError } from "../core/errors.js";
import type { FileTree } from "./types.js";

/** A POSIX relative path with no empty, "." or ".." part: what a FileTree key must be. */
export function isTreePath(p: string): boolean {
  if (p === "" || p.startsWith("/") || p.includes("\\") || p.includes("\0")) return false;
  return p.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/**
 * Reads every regular file under `dir` into a tree. Symlinks and special files are refused:
 * an environment that RES rewrites must be plain files, so the child is reproducible.
 */
export function readTree(dir: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const walk = (rel: string): void => {
    const abs = rel === "" ? dir : join(dir, rel);
    for (const name of readdirSync(abs).sort()) {
      const r = rel === "" ? name : `${rel}/${name}`;
      const st = lstatSync(join(dir, r));
      if (st.isDirectory()) walk(r);
      else if (st.isFile()) out.set(r, new Uint8Array(readFileSync(join(dir, r))));
      else {
        const what = st.isSymbolicLink() ? "a symbolic link" : "not a regular file or folder";
        throw new UserError(
          `${join(dir, r)}: ${what}; RES scales only tasks whose environment/, tests/ and solution/ hold regular files and folders (replace a link by a copy of what it points to)`,
        );
      }
    }
  };
  walk("");
  return out;
}

/** Writes a tree under `dir` (which should be empty or missing). */
export function writeTree(dir: string, tree: FileTree): void {
  mkdirSync(dir, { recursive: true });
  for (const [p, bytes] of [...tree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!isTreePath(p)) throw new UserError(`refusing to write file tree path ${JSON.stringify(p)}`);
    const abs = join(dir, ...p.split("/"));
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, bytes);
  }
}

/**
 * Gives every regular file under `toDir` the execute bits of the regular file at the same
 * relative path under `fromDir`. A tree holds bytes only, so a child written from one would lose
 * them: a helper script the reference solution runs as `./tools/x.sh` (or a test helper, or a
 * build-context entrypoint) would fail with "Permission denied" in every child.
 */
export function keepExecutableBits(fromDir: string, toDir: string): void {
  const walk = (rel: string): void => {
    for (const name of readdirSync(rel === "" ? toDir : join(toDir, rel))) {
      const r = rel === "" ? name : `${rel}/${name}`;
      const to = lstatSync(join(toDir, r));
      if (to.isDirectory()) walk(r);
      if (!to.isFile()) continue;
      let from: Stats;
      try {
        from = lstatSync(join(fromDir, r));
      } catch {
        continue; // A file the parent does not have: made by a transform, which needs no bit.
      }
      const exec = from.isFile() ? from.mode & 0o111 : 0;
      if (exec !== 0) chmodSync(join(toDir, r), (to.mode & 0o777) | exec);
    }
  };
  walk("");
}

/**
 * Gives the protected snapshot of a root's child (`tests/res/snapshot/<path>`, which the child's
 * verifier copies back into the workdir) the root's execute bits of each file; deeper children
 * keep them from their parent's snapshot at the same path.
 */
export function keepSnapshotBits(executables: ReadonlyMap<string, number>, snapshotDir: string): void {
  for (const [p, bits] of executables) {
    const snap = join(snapshotDir, ...p.split("/"));
    try {
      const st = lstatSync(snap);
      if (st.isFile()) chmodSync(snap, (st.mode & 0o777) | bits);
    } catch {
      // Not protected: no snapshot of it.
    }
  }
}

/**
 * The execute bits of the regular files at `paths` under `dir` that have any, by path (a missing
 * or irregular file has none).
 */
export function executableBits(dir: string, paths: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of paths) {
    try {
      const st = lstatSync(join(dir, ...p.split("/")));
      if (st.isFile() && (st.mode & 0o111) !== 0) out.set(p, st.mode & 0o111);
    } catch {
      // Not there: nothing to keep.
    }
  }
  return out;
}

function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Merkle digest of a tree: each folder hashes its sorted entries (name, kind, child digest), so
 * two trees with the same files and bytes have the same digest whatever their insertion order.
 */
export function treeDigest(tree: FileTree): string {
  interface Dir {
    files: Map<string, string>;
    dirs: Map<string, Dir>;
  }
  const root: Dir = { files: new Map(), dirs: new Map() };
  for (const [p, bytes] of tree) {
    const parts = p.split("/");
    const file = parts.pop() ?? "";
    let d = root;
    for (const part of parts) {
      let next = d.dirs.get(part);
      if (next === undefined) {
        next = { files: new Map(), dirs: new Map() };
        d.dirs.set(part, next);
      }
      d = next;
    }
    d.files.set(file, sha256(bytes));
  }
  const hashDir = (d: Dir): string => {
    const rows = [
      ...[...d.files].map(([n, h]) => `f ${JSON.stringify(n)} ${h}`),
      ...[...d.dirs].map(([n, sub]) => `d ${JSON.stringify(n)} ${hashDir(sub)}`),
    ].sort();
    return sha256(rows.join("\n"));
  };
  return hashDir(root);
}

/** A copy of `tree` as a mutable map (for transforms building their output). */
export function cloneTree(tree: FileTree): Map<string, Uint8Array> {
  return new Map(tree);
}

/** posix.join for tree paths, refusing anything that escapes the root. */
export function treeJoin(...parts: string[]): string {
  const p = posix.normalize(posix.join(...parts));
  if (!isTreePath(p)) throw new UserError(`not a relative environment path: ${JSON.stringify(p)}`);
  return p;
}

export const utf8 = {
  encode: (s: string): Uint8Array => new TextEncoder().encode(s),
  decode: (b: Uint8Array): string => new TextDecoder().decode(b),
};
