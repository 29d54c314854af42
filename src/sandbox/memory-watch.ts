import { readdirSync, readFileSync } from "node:fs";

/**
 * Total-memory limit for sandboxes without cgroups (the rlimit fallback). RLIMIT_DATA caps each
 * process, so four processes could hold four times the task's memory. Each such sandbox runs as
 * its own host uid, so the resident memory of that uid's processes is the sandbox's: when it is
 * over the limit, the largest process is killed, as an out-of-memory killer would. Polled, so a
 * burst shorter than the interval can pass; documented in docs/sandbox.md.
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
    for (const p of uidProcesses(uid)) {
      total += p.rss;
      if (largest === null || p.rss > largest.rss) largest = p;
    }
    if (total <= limitBytes || largest === null) return;
    // Resident sizes count pages shared after fork once per process; only when their sum is over
    // is the proportional share (each shared page split among its sharers) worth reading.
    total = 0;
    largest = null;
    for (const p of uidProcesses(uid)) {
      const pss = proportionalBytes(p.pid) ?? p.rss;
      total += pss;
      if (largest === null || pss > largest.rss) largest = { pid: p.pid, rss: pss };
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

/** A process's proportional set size in bytes (/proc/<pid>/smaps_rollup), null if unreadable. */
function proportionalBytes(pid: number): number | null {
  try {
    const kb = /^Pss:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/** Processes of one real uid with their resident memory in bytes, from /proc/<pid>/status. */
export function uidProcesses(uid: number): { pid: number; rss: number }[] {
  const out: { pid: number; rss: number }[] = [];
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
    out.push({ pid: Number(name), rss: kb * 1024 });
  }
  return out;
}
