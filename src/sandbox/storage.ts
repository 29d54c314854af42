import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, type Stats, writeFileSync } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import { join } from "node:path";
import { childPathsBytes } from "../core/byte-paths.js";
import { errorMessage } from "../core/errors.js";
import { hostCommandError } from "./host-command.js";

/**
 * Disk quota for a sandbox's persistent folders. When the host lets us mount (root, loop devices,
 * mkfs.ext4), the state folder is a loop-mounted ext4 image of `storageMb` with a capped inode
 * count: a disk bomb or a file flood ends with ENOSPC and the host disk holds at most the image.
 * Otherwise a watchdog measures usage and the caller kills the sandbox's processes when it is over.
 */
export type StorageMode = "loop" | "watch";

/** Inodes per MiB of quota: enough for source trees and virtualenvs, small enough to stop a flood. */
export const INODES_PER_MB = 32;
const MIN_INODES = 2048;
const MAX_INODES = 2_000_000;

export function inodesFor(storageMb: number): number {
  return Math.min(MAX_INODES, Math.max(MIN_INODES, Math.round(storageMb * INODES_PER_MB)));
}

/** The image file that backs a state folder (a sibling, so it survives the folder's unmount). */
export function imagePathOf(stateDir: string): string {
  return `${stateDir.replace(/\/+$/, "")}.disk`;
}

const run = (argv: readonly string[]): Promise<string | null> => hostCommandError(argv, 60_000);

/** Creates and mounts the image at `stateDir` (an empty or missing folder), or says why it cannot. */
export async function mountStorage(stateDir: string, storageMb: number): Promise<string | null> {
  if (process.getuid?.() !== 0) return "not running as root";
  if (!existsSync("/dev/loop-control")) return "no loop devices";
  const img = imagePathOf(stateDir);
  // The folder and the sparse image file without a process each: every sandbox makes them, and a
  // spawn from this process costs its one thread a few ms (it copies the process's page tables).
  try {
    await mkdir(stateDir, { recursive: true });
    const fh = await open(img, "w");
    try {
      await fh.truncate(storageMb * 1024 * 1024);
    } finally {
      await fh.close();
    }
  } catch (e) {
    rmSync(img, { force: true });
    return `making ${img} failed: ${errorMessage(e)}`;
  }
  const steps: string[][] = [
    // No journal: the image is scratch space that dies with the sandbox, and mkfs is faster.
    [
      "mkfs.ext4",
      "-q",
      "-F",
      "-m",
      "0",
      "-N",
      String(inodesFor(storageMb)),
      "-O",
      "^has_journal",
      "-E",
      "lazy_itable_init=1",
      img,
    ],
    ["mount", "-o", "loop,nosuid,nodev,noatime", img, stateDir],
  ];
  for (const step of steps) {
    const err = await run(step);
    if (err !== null) {
      rmSync(img, { force: true });
      return `${step[0]} failed: ${err}`;
    }
  }
  // mkfs leaves lost+found; the state folder should hold only the sandbox's folders.
  rmSync(join(stateDir, "lost+found"), { recursive: true, force: true });
  makeReserve(stateDir);
  return null;
}

/**
 * Room kept back on the quota for the sandbox's own set-up: a folder no exec is shown, holding
 * RESERVE_INODES empty files and RESERVE_BYTES of data. An agent over an image that filled its
 * disk (bytes or inodes) left bwrap no room to make the verifier's mount points (/tests) in its
 * root: the verifier could not start, an infrastructure error that rates leave out. Released
 * (`releaseReserve`) when an exec cannot start for want of space.
 */
const RESERVE = ".longhaul-reserve";
const RESERVE_INODES = 64;
const RESERVE_BYTES = 256 * 1024;

function makeReserve(stateDir: string): void {
  const dir = join(stateDir, RESERVE);
  try {
    mkdirSync(dir, { mode: 0o700 });
    for (let i = 0; i < RESERVE_INODES; i++) writeFileSync(join(dir, String(i)), "");
    writeFileSync(join(dir, "bytes"), Buffer.alloc(RESERVE_BYTES, 1));
  } catch {
    // A quota too small for it: the sandbox runs without one.
  }
}

/** Frees the reserve above; true when there was one to free. */
export function releaseReserve(stateDir: string): boolean {
  const dir = join(stateDir, RESERVE);
  if (!existsSync(dir)) return false;
  rmSync(dir, { recursive: true, force: true });
  return true;
}

/** True when `dir` is a mount point (listed in /proc/self/mountinfo). */
export function isMountPoint(dir: string): boolean {
  try {
    const target = dir.replace(/\/+$/, "");
    return readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .some((l) => l.split(" ")[4]?.replace(/\\040/g, " ") === target);
  } catch {
    return false;
  }
}

/** Unmounts the state folder (lazily if still busy) and deletes its image. */
export async function releaseStorage(stateDir: string): Promise<string | null> {
  let err: string | null = null;
  if (isMountPoint(stateDir)) {
    err = await run(["umount", stateDir]);
    if (err !== null) err = await run(["umount", "-l", stateDir]);
  }
  try {
    rmSync(imagePathOf(stateDir), { force: true });
  } catch (e) {
    err = errorMessage(e);
  }
  return err;
}

/** Bytes used under `dir` (allocated blocks, hard links counted once); stops early past `stopAt`. */
export function diskUsage(dir: string, stopAt = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const seen = new Set<string>();
  const stack: Buffer[] = [Buffer.from(dir)];
  while (stack.length > 0 && total <= stopAt) {
    const d = stack.pop() as Buffer;
    let paths: Buffer[];
    try {
      // By bytes: a folder whose name is not UTF-8 must not hide what it holds from the quota.
      paths = childPathsBytes(d);
    } catch {
      continue;
    }
    for (const p of paths) {
      let st: Stats;
      try {
        st = lstatSync(p);
      } catch (e) {
        // A path too long for the host to name: the walk, going by path, cannot measure it
        // (before, it was skipped, and an agent wrote there without limit). du(1) walks by
        // descriptor and measures the whole tree instead.
        if ((e as NodeJS.ErrnoException).code === "ENAMETOOLONG") return duUsage(dir);
        continue; // removed while walking
      }
      const key = `${st.dev}:${st.ino}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // Count at least one block per entry, so a flood of empty files is charged too.
      total += Math.max(st.blocks * 512, 4096);
      if (st.isDirectory()) stack.push(p);
    }
  }
  return total;
}

/**
 * Bytes used under `dir` by du(1), which reaches any depth: allocated bytes plus one block per
 * entry, at least what the walk above charges. Any tree deeper than the host can name is measured
 * here, not counted as over every quota: in a docker sandbox the watch also runs while the
 * verifier does, and an agent that left a small deep tree in /tmp had its verifier killed, making
 * its trial a grading error of its choosing. Infinite when du cannot measure it.
 */
function duUsage(dir: string): number {
  const du = (args: string[]): number => {
    const r = spawnSync("du", ["-s", ...args, "--", dir], { encoding: "utf8", timeout: 60_000 });
    // du exits 1 when a file went away while it walked; its total still stands.
    const n = Number(/^(\d+)\s/.exec(r.stdout ?? "")?.[1] ?? Number.NaN);
    return r.error === undefined && r.signal === null && Number.isFinite(n) ? n : Number.POSITIVE_INFINITY;
  };
  return du(["-B1"]) + du(["--inodes"]) * 4096;
}
