import { readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";

/**
 * Total-memory limit for sandboxes without cgroups (the rlimit fallback). RLIMIT_DATA caps each
 * process, so four processes could hold four times the task's memory. Each such sandbox runs as
 * its own host uid, so the resident memory of that uid's processes is the sandbox's: when it is
 * over the limit, the largest process is killed, as an out-of-memory killer would. Polled, so a
 * burst shorter than the interval can pass; documented in docs/sandbox.md.
 *
 * Memory held in memfds (memfd_create) is no process's resident memory until it is mapped and
 * touched: each memfd a process holds open counts in full (once, however many hold it), to the
 * first holder, and that process's mapped shared memory (RssShmem) is left out of its resident
 * size so that a memfd both held and mapped is not counted twice.
 */
export interface MemoryWatch {
  stop(): void;
}

export function watchUidMemory(
  uid: number,
  limitBytes: number,
  onKill: (pid: number, totalBytes: number) => void,
  intervalMs = 50,
): MemoryWatch {
  const timer = setInterval(() => {
    let total = 0;
    let largest: { pid: number; rss: number } | null = null;
    const processes = uidProcesses(uid);
    const held = new Map<number, number>();
    const seen = new Set<string>();
    for (const p of processes) {
      const memfds = memfdBytes(p.pid, seen);
      if (memfds !== null) held.set(p.pid, memfds);
      const bytes = memfds === null ? p.rss : p.rss - p.shmem + memfds;
      total += bytes;
      if (largest === null || bytes > largest.rss) largest = { pid: p.pid, rss: bytes };
    }
    if (total <= limitBytes || largest === null) return;
    // Resident sizes count pages shared after fork once per process; only when their sum is over
    // is the proportional share (each shared page split among its sharers) worth reading.
    total = 0;
    largest = null;
    for (const p of processes) {
      const memfds = held.get(p.pid);
      const pss = proportionalBytes(p.pid, memfds !== undefined) ?? p.rss;
      const bytes = pss + (memfds ?? 0);
      total += bytes;
      if (largest === null || bytes > largest.rss) largest = { pid: p.pid, rss: bytes };
    }
    if (total <= limitBytes || largest === null) return;
    try {
      process.kill(largest.pid, "SIGKILL");
      onKill(largest.pid, total);
    } catch {
      // Already gone.
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * A process's proportional set size in bytes (/proc/<pid>/smaps_rollup), without its share of
 * shared memory (Pss_Shmem) when `lessShmem`; null if unreadable.
 */
function proportionalBytes(pid: number, lessShmem: boolean): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kb = /^Pss:\s+(\d+)\s+kB/m.exec(text)?.[1];
    if (kb === undefined) return null;
    const shmemKb = lessShmem ? Number(/^Pss_Shmem:\s+(\d+)\s+kB/m.exec(text)?.[1] ?? 0) : 0;
    return (Number(kb) - shmemKb) * 1024;
  } catch {
    return null;
  }
}

/**
 * Bytes allocated to the memfds a process holds open that no earlier process in this poll held
 * (`seen` holds their inodes); null when it holds none (or its descriptors cannot be read).
 */
export function memfdBytes(pid: number, seen: Set<string>): number | null {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return null;
  }
  let bytes: number | null = null;
  for (const fd of fds) {
    const path = `/proc/${pid}/fd/${fd}`;
    try {
      if (!readlinkSync(path).startsWith("/memfd:")) continue;
      const st = statSync(path);
      bytes ??= 0;
      const key = `${st.dev}:${st.ino}`;
      if (seen.has(key)) continue;
      seen.add(key);
      bytes += st.blocks * 512;
    } catch {
      // Closed or exited while listing.
    }
  }
  return bytes;
}

/** Processes of one real uid with their resident and resident shared memory in bytes, from /proc/<pid>/status. */
export function uidProcesses(uid: number): { pid: number; rss: number; shmem: number }[] {
  const out: { pid: number; rss: number; shmem: number }[] = [];
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let status: string;
    try {
      status = readFileSync(`/proc/${name}/status`, "utf8");
    } catch {
      continue; // exited while listing
    }
    if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1) !== uid) continue;
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
    const shmemKb = Number(/^RssShmem:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
    out.push({ pid: Number(name), rss: kb * 1024, shmem: shmemKb * 1024 });
  }
  return out;
}
