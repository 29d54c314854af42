import { spawn } from "node:child_process";
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Host paths under the read-only system binds that an ordinary user could not read. Sandboxed
 * processes are host root with every capability dropped, so owner permissions still apply to
 * root-owned files: a 0600 key under /etc would be readable. Every such file is covered with a
 * device node that cannot be opened, every such folder with an empty inaccessible tmpfs.
 */
export interface UnreadablePaths {
  /** Regular files without the world-read bit. */
  files: string[];
  /** Folders without world read and search; their contents are not listed separately. */
  dirs: string[];
  /** How long the scan took. */
  scanMs: number;
}

const cache = new Map<string, Promise<UnreadablePaths>>();

/**
 * The unreadable paths under `roots`, scanned once per process (a few seconds over a full /usr)
 * and shared by every provider. Paths that become unreadable later are not covered.
 */
export function unreadablePaths(roots: readonly string[]): Promise<UnreadablePaths> {
  const key = roots.join("\0");
  let p = cache.get(key);
  if (p === undefined) {
    p = scanWithFind(roots).then((r) => r ?? scanUnreadable(roots));
    cache.set(key, p);
  }
  return p;
}

/** The same scan with find(1), several times faster than a walk in JS; null when find fails. */
export function scanWithFind(roots: readonly string[]): Promise<UnreadablePaths | null> {
  const t0 = performance.now();
  const args = [
    ...roots,
    "(",
    "-type",
    "d",
    "!",
    "-perm",
    "-o=rx",
    "-printf",
    "d%p\\0",
    "-prune",
    ")",
    "-o",
    "(",
    "-type",
    "f",
    "!",
    "-perm",
    "-o=r",
    "-printf",
    "f%p\\0",
    ")",
  ];
  return new Promise((resolve) => {
    const child = spawn("find", args, { stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.on("error", () => resolve(null));
    // find exits 1 when some path vanished or a root is missing; its output is still complete.
    child.on("close", (code) => {
      if (code !== 0 && code !== 1) return resolve(null);
      const files: string[] = [];
      const dirs: string[] = [];
      for (const entry of Buffer.concat(chunks).toString("utf8").split("\0")) {
        if (entry.startsWith("f/")) files.push(entry.slice(1));
        else if (entry.startsWith("d/")) dirs.push(entry.slice(1));
      }
      files.sort();
      dirs.sort();
      resolve({ files, dirs, scanMs: performance.now() - t0 });
    });
  });
}

/** Scans `roots` in JS; symlinks are not followed (they resolve inside the sandbox's own view). */
export function scanUnreadable(roots: readonly string[]): UnreadablePaths {
  const t0 = performance.now();
  const files: string[] = [];
  const dirs: string[] = [];
  const stack: string[] = [];
  for (const root of roots) {
    try {
      if (!lstatSync(root).isDirectory()) continue;
    } catch {
      continue;
    }
    stack.push(root);
  }
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const p = join(dir, name);
      let mode: number;
      let kind: "file" | "dir" | "other";
      try {
        const st = lstatSync(p);
        mode = st.mode;
        kind = st.isFile() ? "file" : st.isDirectory() ? "dir" : "other";
      } catch {
        continue;
      }
      if (kind === "file" && (mode & 0o004) === 0) files.push(p);
      else if (kind === "dir") {
        if ((mode & 0o005) !== 0o005) dirs.push(p);
        else stack.push(p);
      }
    }
  }
  files.sort();
  dirs.sort();
  return { files, dirs, scanMs: performance.now() - t0 };
}

/** bwrap arguments covering the paths (files with /dev/null, folders with a mode-0 tmpfs). */
export function maskArgs(paths: Pick<UnreadablePaths, "files" | "dirs">): string[] {
  const args: string[] = [];
  // The scan is cached for the process's life; a path deleted since (a rotated key, a temporary
  // file) has no mount point left under the read-only system binds, and bwrap would refuse to
  // start: only paths that still exist are covered.
  for (const f of paths.files.filter(stillThere)) args.push("--ro-bind-try", "/dev/null", f);
  for (const d of paths.dirs.filter(stillThere)) args.push("--perms", "0000", "--tmpfs", d);
  return args;
}

function stillThere(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
