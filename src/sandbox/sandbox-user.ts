import { randomInt } from "node:crypto";
import { lchownSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { childPathsBytes } from "../core/byte-paths.js";

/**
 * A host uid per sandbox for the rlimit mode. RLIMIT_NPROC counts the processes of a uid and the
 * kernel never applies it to root, so the sandbox's commands run as a uid no other process uses:
 * the cap then counts exactly the sandbox's processes, and files only root may read stay unread.
 */
export const SANDBOX_UID_BASE = 1_900_000_000;
const SANDBOX_UID_SPAN = 1 << 24;

export function isSandboxUid(uid: number): boolean {
  return uid >= SANDBOX_UID_BASE && uid < SANDBOX_UID_BASE + SANDBOX_UID_SPAN;
}

/** A random uid of the sandbox range that owns no running process and is not in `taken`. */
export function allocateSandboxUid(taken: ReadonlySet<number> = new Set()): number {
  const busy = new Set([...taken, ...processesByUid().keys()]);
  for (;;) {
    const uid = SANDBOX_UID_BASE + randomInt(SANDBOX_UID_SPAN);
    if (!busy.has(uid)) return uid;
  }
}

/** Running processes grouped by real uid, from /proc. */
export function processesByUid(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const m = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, "utf8"));
      if (m?.[1] === undefined) continue;
      const uid = Number(m[1]);
      const list = out.get(uid) ?? [];
      list.push(Number(name));
      out.set(uid, list);
    } catch {
      // Exited while listing.
    }
  }
  return out;
}

/** SIGKILL every process of `uid` until none is left; false if some survive `timeoutMs`. */
export async function killUid(uid: number, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = processesByUid().get(uid) ?? [];
    const alive = pids.filter((p) => !isZombie(p));
    if (alive.length === 0) return true;
    if (Date.now() > deadline) return false;
    for (const pid of alive) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

function isZombie(pid: number): boolean {
  try {
    return /^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Gives a host file or folder tree to the sandbox's uid (symlinks themselves, never followed). */
export function chownTree(path: string, uid: number, gid: number): void {
  // By bytes: a name that is not UTF-8 would otherwise be decoded into one that does not exist.
  const stack: Buffer[] = [Buffer.from(path)];
  for (let p = stack.pop(); p !== undefined; p = stack.pop()) {
    const st = lstatSync(p);
    lchownSync(p, uid, gid);
    if (st.isDirectory()) for (const c of childPathsBytes(p)) stack.push(c);
  }
}

/** /etc/passwd and /etc/group for the sandbox: the host's plus "root" entries for the uid. */
export function identityFiles(uid: number, gid: number): { passwd: string; group: string } {
  const read = (p: string): string => {
    try {
      const t = readFileSync(p, "utf8");
      return t.endsWith("\n") || t === "" ? t : `${t}\n`;
    } catch {
      return "";
    }
  };
  return {
    passwd: `${read("/etc/passwd")}root:x:${uid}:${gid}:root:/root:/bin/bash\n`,
    group: `${read("/etc/group")}root:x:${gid}:\n`,
  };
}
