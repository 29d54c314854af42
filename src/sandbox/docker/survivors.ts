import { readFileSync } from "node:fs";
import type { ContainerFacts } from "./container-facts.js";
import { collect, dockerBin } from "./proc.js";

/**
 * killAll's check from outside the container. Its kill loop is a `bash -c` script run in the
 * container by the container's own bash, which an agent root in its container can replace (a
 * rename over /usr/bin/bash): the loop then "succeeds" while the agent's processes live on into
 * the verifier's phase. `docker top` lists the container's processes from the daemon (the host's
 * ps over the container's cgroup), which nothing in the container can fake; what it finds is
 * killed from the host where longhaul runs beside the daemon. The limit: pid 1 restarts the
 * container's `sleep`, which the agent may have replaced as well, and that one passes for the
 * keep-alive sleep.
 */

export interface Survivor {
  /** Host pid (docker top shows the host's pids). */
  pid: number;
  args: string;
}

/** The keep-alive sleep of pid 1 (scripts.ts KEEP_ALIVE). */
const KEEP_ALIVE_SLEEP = "sleep 86400.25";

/** The container's facts from the daemon (container-facts.ts), kept for its life once known. */
export type FactsOf = () => Promise<ContainerFacts | null>;

/** Processes of the container but pid 1 and its keep-alive sleep; null when docker cannot say. */
export async function listSurvivors(container: string, facts: FactsOf): Promise<Survivor[] | null> {
  // Both asked at once: each is a round trip to the daemon, and killAll asks at least once a trial
  // (the init pid is asked only the first time: it cannot change while the container runs).
  const [top, init] = await Promise.all([
    collect([dockerBin(), "top", container, "-o", "pid,ppid,stat,args"], undefined, 60),
    facts(),
  ]);
  if (top.code !== 0 || init === null) return null;
  const pid1 = init.pid;
  const out: Survivor[] = [];
  let sleeps = 0;
  for (const line of top.stdout.toString("utf8").split("\n").slice(1)) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (m === null) continue;
    const [, pid, ppid, stat, args] = m;
    if (Number(pid) === pid1 || (stat ?? "").startsWith("Z")) continue;
    if (Number(ppid) === pid1 && args?.trim() === KEEP_ALIVE_SLEEP && sleeps++ === 0) continue;
    out.push({ pid: Number(pid), args: (args ?? "").trim() });
  }
  return out;
}

/**
 * SIGKILLs each survivor from the host, only when this host's /proc shows it in the container's
 * cgroup (a remote daemon's pids name other processes here, or none).
 */
function killFromHost(containerId: string, survivors: readonly Survivor[]): void {
  if (containerId.length < 12) return;
  for (const s of survivors) {
    let cgroup: string;
    try {
      cgroup = readFileSync(`/proc/${s.pid}/cgroup`, "utf8");
    } catch {
      continue;
    }
    if (!cgroup.includes(containerId)) continue;
    try {
      process.kill(s.pid, "SIGKILL");
    } catch {
      // Gone meanwhile, or not ours to signal: the check after says which.
    }
  }
}

/** Kills what killAll's loop left (from the host, see killFromHost); returns what still lives. */
export async function endSurvivors(container: string, facts: FactsOf): Promise<Survivor[]> {
  let left = await listSurvivors(container, facts);
  if (left === null || left.length === 0) return [];
  // The container's full id, as its cgroup paths name it ("" when inspect fails).
  const id = (await facts())?.id ?? "";
  for (let i = 0; i < 20 && left !== null && left.length > 0; i++) {
    killFromHost(id, left);
    await new Promise((res) => setTimeout(res, 50));
    left = await listSurvivors(container, facts);
  }
  return left ?? [];
}
