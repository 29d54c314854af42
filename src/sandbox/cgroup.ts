import { existsSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "../core/errors.js";

export interface Limits {
  memoryMb: number;
  pidsMax: number;
  cpus: number;
}

/** How a sandbox's limits are enforced: one cgroup per sandbox, or per-process rlimits. */
export type LimitMode = "cgroup" | "rlimit";

const SAFE_PATH = /^[A-Za-z0-9_./-]+$/;

/** Group names carry the owning process's pid, so groups left by a crashed run can be found. */
const GROUP_NAME = /^longhaul-(\d+)-[A-Za-z0-9-]+$/;

/**
 * Where the cgroup v1 hierarchies are looked for: $LONGHAUL_CGROUP_ROOT, else /sys/fs/cgroup.
 * Pointing it at a folder without them makes every sandbox take the rlimit fallback, as on a host
 * whose cgroupfs is read-only (a container); the test suite uses it to run that path everywhere.
 */
export function defaultCgroupRoot(): string {
  const root = process.env.LONGHAUL_CGROUP_ROOT;
  return root === undefined || root === "" ? "/sys/fs/cgroup" : root;
}

export function cgroupName(sandboxId: string, ownerPid = process.pid): string {
  return `longhaul-${ownerPid}-${sandboxId}`;
}

/**
 * A cgroup v1 group per sandbox (memory + pids, cpu when writable) made beside the calling
 * process's own groups, so it nests under whatever limits the host already imposes. Every bwrap
 * process of the sandbox joins it through a tiny `sh` wrapper before exec, so no process of the
 * sandbox ever runs outside it.
 */
export class CgroupV1 {
  private constructor(
    /** Group folders; the first is the pids group, used to list and kill processes. */
    readonly dirs: readonly string[],
  ) {}

  /** Creates the groups, or returns the reason they cannot be used. */
  static async create(name: string, limits: Limits, root = defaultCgroupRoot()): Promise<CgroupV1 | string> {
    let own: Map<string, string>;
    try {
      own = ownCgroups(readFileSync("/proc/self/cgroup", "utf8"));
    } catch (e) {
      return `cannot read /proc/self/cgroup: ${errorMessage(e)}`;
    }
    const pids = controllerDir(root, own, "pids");
    const memory = controllerDir(root, own, "memory");
    if (pids === null || memory === null) return "cgroup v1 pids and memory controllers are not mounted";
    const cpu = controllerDir(root, own, "cpu");
    for (const parent of [pids, memory, cpu]) if (parent !== null) await sweepStale(parent);
    const made: string[] = [];
    try {
      const pidsDir = join(pids, name);
      const memDir = join(memory, name);
      for (const d of [pidsDir, memDir]) {
        await mkdir(d);
        made.push(d);
      }
      writeFileSync(join(pidsDir, "pids.max"), String(limits.pidsMax));
      const bytes = String(limits.memoryMb * 1024 * 1024);
      writeFileSync(join(memDir, "memory.limit_in_bytes"), bytes);
      // Swap would let a memory bomb outlive the limit; the file is absent when swap accounting is off.
      const memsw = join(memDir, "memory.memsw.limit_in_bytes");
      if (existsSync(memsw)) writeFileSync(memsw, bytes);
      if (cpu !== null) {
        const cpuDir = join(cpu, name);
        try {
          await mkdir(cpuDir);
          made.push(cpuDir);
          writeFileSync(join(cpuDir, "cpu.cfs_period_us"), "100000");
          writeFileSync(
            join(cpuDir, "cpu.cfs_quota_us"),
            String(Math.max(1000, Math.round(limits.cpus * 100000))),
          );
        } catch {
          // A CPU quota is a courtesy to neighbours, not a safety limit: go on without it.
          if (made.at(-1) === cpuDir) made.pop();
          tryRmdir(cpuDir);
        }
      }
      if (!made.every((d) => SAFE_PATH.test(d)))
        throw new Error(`unexpected characters in ${made.join(" ")}`);
      return new CgroupV1(made);
    } catch (e) {
      for (const d of made.reverse()) tryRmdir(d);
      return `cannot set up cgroups: ${errorMessage(e)}`;
    }
  }

  /** argv that joins every group and then execs `argv` (same pid, so killing it kills bwrap). */
  wrap(argv: readonly string[]): string[] {
    const joins = this.dirs.map((d) => `echo $$ > '${d}/cgroup.procs'`).join(" && ");
    return ["/bin/sh", "-c", `${joins} && exec "$@"`, "sh", ...argv];
  }

  /** Pids of every process currently in the sandbox. */
  procs(): number[] {
    const dir = this.dirs[0];
    return dir === undefined ? [] : readProcs(dir);
  }

  /** SIGKILL everything in the group until it is empty (a forking process is killed again). */
  async killAll(timeoutMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const procs = this.procs();
      if (procs.length === 0) return true;
      if (Date.now() > deadline) return false;
      for (const pid of procs) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async remove(): Promise<void> {
    await this.killAll();
    for (const d of this.dirs) {
      // The kernel may report the group busy for a moment after its last process died.
      for (let i = 0; i < 50 && !tryRmdir(d); i++) await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/**
 * Removes groups whose owning process is gone (a run that crashed or was killed before close):
 * bwrap does not die with longhaul, so their processes are killed first.
 */
async function sweepStale(parent: string): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return removed;
  }
  for (const name of names) {
    const owner = GROUP_NAME.exec(name)?.[1];
    if (owner === undefined || isAlive(Number(owner))) continue;
    const dir = join(parent, name);
    for (let i = 0; i < 20 && !tryRmdir(dir); i++) {
      for (const pid of readProcs(dir)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    if (!existsSync(dir)) removed.push(dir);
  }
  return removed;
}

/** Sweeps stale groups beside the calling process's own, in every controller; returns them. */
export async function sweepStaleCgroups(root = defaultCgroupRoot()): Promise<string[]> {
  let own: Map<string, string>;
  try {
    own = ownCgroups(readFileSync("/proc/self/cgroup", "utf8"));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const c of ["pids", "memory", "cpu"]) {
    const dir = controllerDir(root, own, c);
    if (dir !== null) removed.push(...(await sweepStale(dir)));
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readProcs(dir: string): number[] {
  try {
    return readFileSync(join(dir, "cgroup.procs"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map(Number);
  } catch {
    return [];
  }
}

function tryRmdir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/** controller name -> the calling process's path in that hierarchy, from /proc/self/cgroup. */
export function ownCgroups(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    if (!m || m[1] === undefined || m[2] === undefined || m[1] === "") continue;
    for (const c of m[1].split(",")) out.set(c, m[2]);
  }
  return out;
}

function controllerDir(root: string, own: Map<string, string>, controller: string): string | null {
  const path = own.get(controller);
  if (path === undefined) return null;
  // Co-mounted controllers (cpu,cpuacct) are reachable through the single-name link distributions add.
  const dir = join(root, controller, path);
  return existsSync(join(dir, "cgroup.procs")) ? dir : null;
}
