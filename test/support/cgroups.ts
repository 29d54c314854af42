import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

let probed: boolean | null = null;

/**
 * Whether this host lets longhaul make its own cgroup v1 groups (the root being
 * $LONGHAUL_CGROUP_ROOT or /sys/fs/cgroup, as for the sandbox): a probe group is made beside this
 * process's own, in the pids and memory hierarchies, given a limit and removed. Inside a container
 * cgroupfs is usually read-only, and sandboxes then fall back to rlimits: tests that look at
 * cgroups ask this first and check the fallback instead. Probed directly rather than through the
 * sandbox code, so a regression there cannot make a test quietly pick the fallback branch.
 */
export function cgroupsWritable(): boolean {
  if (probed === null) probed = probe();
  return probed;
}

function probe(): boolean {
  const env = process.env.LONGHAUL_CGROUP_ROOT;
  const root = env === undefined || env === "" ? "/sys/fs/cgroup" : env;
  let own: string;
  try {
    own = readFileSync("/proc/self/cgroup", "utf8");
  } catch {
    return false;
  }
  const limits = [
    ["pids", "pids.max", "64"],
    ["memory", "memory.limit_in_bytes", String(64 * 1024 * 1024)],
  ] as const;
  for (const [controller, file, value] of limits) {
    const path = new RegExp(`^\\d+:(?:[^:]*,)?${controller}(?:,[^:]*)?:(.*)$`, "m").exec(own)?.[1];
    if (path === undefined) return false;
    const parent = join(root, controller, path);
    if (!existsSync(join(parent, "cgroup.procs"))) return false;
    // Named like a sandbox's group of this process, so a crash leaves nothing the sweep misses.
    const dir = join(parent, `longhaul-${process.pid}-probe-${controller}`);
    try {
      mkdirSync(dir);
    } catch {
      return false;
    }
    try {
      writeFileSync(join(dir, file), value);
    } catch {
      return false;
    } finally {
      try {
        rmdirSync(dir);
      } catch {
        // Removed later by the stale-group sweep, which owns this name pattern.
      }
    }
  }
  return true;
}
