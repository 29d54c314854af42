import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { sweepStaleCgroups } from "./cgroup.js";
import { unmountUnder } from "./image-root.js";
import { removeTree } from "./remove-tree.js";
import { killUid } from "./sandbox-user.js";
import { imagePathOf, isMountPoint, releaseStorage } from "./storage.js";

/**
 * Every live bwrap sandbox leaves a small record naming its owner process and what it holds on
 * the host (state folder, disk image, uid), so a run that crashed can be cleaned up later.
 */
const recordSchema = z.object({
  ownerPid: z.number().int().positive(),
  stateDir: z.string().min(1),
  uid: z.number().int().nullable(),
  /** Mounts inside the state folder (an image sandbox's overlay root), unmounted before it. */
  mounts: z.array(z.string().min(1)).optional(),
});
export type SandboxRecord = z.infer<typeof recordSchema>;

export function defaultRegistryDir(): string {
  return join(tmpdir(), "longhaul-sandboxes");
}

export function writeRecord(registryDir: string, id: string, record: SandboxRecord): string {
  mkdirSync(registryDir, { recursive: true, mode: 0o700 });
  const file = join(registryDir, `${record.ownerPid}-${id}.json`);
  writeFileSync(file, JSON.stringify(record));
  return file;
}

export function readRecords(registryDir: string): { file: string; record: SandboxRecord }[] {
  let names: string[];
  try {
    names = readdirSync(registryDir);
  } catch {
    return [];
  }
  const out: { file: string; record: SandboxRecord }[] = [];
  for (const name of names.filter((n) => n.endsWith(".json"))) {
    const file = join(registryDir, name);
    try {
      const r = recordSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
      if (r.success) out.push({ file, record: r.data });
      else rmSync(file, { force: true });
    } catch {
      // Half-written by a process that died mid-write: nothing to clean but the record.
      rmSync(file, { force: true });
    }
  }
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface SweepOptions {
  /** Where sandbox records live (default: tmpdir/longhaul-sandboxes). */
  registryDir?: string;
  /** Folder holding runner state folders named longhaul-<pid>-… (default: the OS tmpdir). */
  tmpRoot?: string;
  /** Root of the cgroup v1 hierarchies (default $LONGHAUL_CGROUP_ROOT, else /sys/fs/cgroup); null skips cgroups. */
  cgroupRoot?: string | null;
}

/** Removes what sandboxes of dead longhaul processes left: processes, mounts, folders, cgroups. */
export async function sweepStaleSandboxes(options: SweepOptions = {}): Promise<string[]> {
  const removed: string[] = [];
  for (const { file, record } of readRecords(options.registryDir ?? defaultRegistryDir())) {
    if (isAlive(record.ownerPid)) continue;
    if (record.uid !== null) await killUid(record.uid);
    unmountUnder(record.stateDir);
    await releaseStorage(record.stateDir);
    if (!isMountPoint(record.stateDir)) removeTree(record.stateDir);
    rmSync(file, { force: true });
    removed.push(record.stateDir);
  }
  const tmpRoot = options.tmpRoot ?? tmpdir();
  let names: string[] = [];
  try {
    names = readdirSync(tmpRoot);
  } catch {
    // No tmp folder to sweep.
  }
  for (const name of names) {
    const owner = /^longhaul-(\d+)-/.exec(name)?.[1];
    if (owner === undefined || isAlive(Number(owner))) continue;
    const p = join(tmpRoot, name);
    if (name.endsWith(".disk")) {
      if (isMountPoint(p.slice(0, -".disk".length))) continue;
    } else {
      unmountUnder(p);
      await releaseStorage(p);
      if (isMountPoint(p)) continue;
    }
    removeTree(p);
    rmSync(imagePathOf(p), { force: true });
    removed.push(p);
  }
  if (options.cgroupRoot !== null) removed.push(...(await sweepStaleCgroups(options.cgroupRoot)));
  return removed;
}
