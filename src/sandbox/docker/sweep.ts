import { hostname } from "node:os";
import { isAlive } from "../sweep.js";
import { collect, dockerBin } from "./proc.js";

/** Labels every container of the docker provider carries (sandboxes and throwaway ones). */
export function ownerLabels(kind: string): string[] {
  return [`longhaul.sandbox=${kind}`, `longhaul.owner-pid=${process.pid}`, `longhaul.host=${hostname()}`];
}

/**
 * Removes the containers of longhaul processes on this host that are gone (killed with -9, the
 * machine's power cut…): a container outlives its owner otherwise. Containers of live processes
 * and of other hosts sharing the daemon are left alone. Returns the names removed.
 */
export async function sweepStaleContainers(): Promise<string[]> {
  const r = await collect([
    dockerBin(),
    "ps",
    "-a",
    "--filter",
    "label=longhaul.sandbox",
    "--filter",
    `label=longhaul.host=${hostname()}`,
    "--format",
    '{{.Names}}\t{{.Label "longhaul.owner-pid"}}',
  ]);
  if (r.code !== 0) return [];
  const stale: string[] = [];
  for (const line of r.stdout.toString("utf8").split("\n")) {
    const [name, pid] = line.split("\t");
    const owner = Number(pid);
    if (name && Number.isInteger(owner) && owner > 0 && !isAlive(owner)) stale.push(name);
  }
  if (stale.length > 0) await collect([dockerBin(), "rm", "-f", "-v", ...stale]);
  return stale;
}
