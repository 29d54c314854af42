import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ownCgroups } from "../../src/sandbox/cgroup.js";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { CLI } from "../support/cli-process.js";

// A whole `longhaul run` job with $LONGHAUL_CGROUP_ROOT at cgroups that cannot be written, as on a
// host whose cgroupfs is read-only (a container): on every host, each sandbox takes the rlimit
// fallback, the job still scores, and the fallback warning comes once for the job, not per trial.

const run = promisify(execFile);
const work = tempDir("limits-fallback");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const JobOutput = z.object({
  trials: z.array(
    z.object({ trial_id: z.string(), agent: z.string(), outcome: z.string(), reward: z.number().nullable() }),
  ),
});

/**
 * A cgroup root whose pids and memory groups of this process are found (each holds a
 * cgroup.procs) but in which no sandbox group can be made: the longer of the two folders' paths
 * is so long that adding a group's name passes PATH_MAX, and mkdir fails with ENAMETOOLONG as it
 * fails with EROFS on a read-only cgroupfs. Like that error, the warning's reason names each
 * sandbox's own group, so only the per-job (per provider) dedup keeps it to one line; a folder
 * without cgroups would give the same text for every sandbox.
 */
function unwritableCgroupRoot(): string {
  const own = ownCgroups(readFileSync("/proc/self/cgroup", "utf8"));
  const controllers = ["pids", "memory"] as const;
  // The characters before a name inside a controller's folder (its path and a slash), as the
  // sandbox joins them. PATH_MAX is 4096 with the final NUL: "cgroup.procs" (12) fits after 4077
  // characters, a group name (longhaul-<pid>-sbx-<10 hex>, at least 25) does not.
  const prefix = (root: string, c: string): number =>
    join(root, c, own.get(c) ?? "/", "cgroup.procs").length - "cgroup.procs".length;
  const target = 4077;
  let root = join(work, "cg");
  for (;;) {
    const left = target - Math.max(...controllers.map((c) => prefix(root, c)));
    if (left === 0) break;
    // Each step adds a slash and the folder's name; the last one lands exactly.
    const step = left > 200 ? 100 : left - 1;
    if (step < 1) throw new Error(`cannot pad ${root} to ${target}`);
    root = join(root, "d".repeat(step));
  }
  for (const c of controllers) {
    const dir = join(root, c, own.get(c) ?? "/");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "cgroup.procs"), "");
  }
  return root;
}

describe("a job on a host whose cgroups cannot be written", () => {
  it("runs every trial under rlimits and warns once for the job", async () => {
    const noCgroups = unwritableCgroupRoot();
    const jobs = join(work, "jobs");
    // Each trial's shell agent reports the limits it runs under: the process cap of the rlimit
    // mode is the trial sandbox's pidsMax (4096); a cgroup leaves the host's own rlimit.
    const args = [
      ...["run", join(FIXTURES, "hello"), "--agent", "oracle", "--agent", "shell"],
      ...["--agent-opt", "cmd=ulimit -u", "-n", "2", "--seed", "5"],
      ...["--jobs-dir", jobs, "--job", "fallback", "--json"],
    ];
    const r = await run(process.execPath, [CLI, ...args], {
      env: { ...process.env, CI: "true", LONGHAUL_CGROUP_ROOT: noCgroups },
      maxBuffer: 16 * 1024 * 1024,
    });
    const { trials } = JobOutput.parse(JSON.parse(r.stdout));
    expect(trials.map((t) => t.agent).sort()).toEqual(["oracle", "shell"]);
    for (const t of trials) {
      expect(t.outcome).toBe("completed");
      expect(t.reward).toBe(t.agent === "oracle" ? 1 : 0);
      if (t.agent !== "shell") continue;
      const stdout = readFileSync(join(jobs, "fallback", t.trial_id, "agent", "shell.stdout.txt"), "utf8");
      expect(stdout).toBe("4096\n");
    }
    const limitWarnings = r.stderr
      .split("\n")
      .filter((l) => /^warning: sandbox (limits fall back to rlimits|memory and process limits)/.test(l));
    expect(limitWarnings).toEqual([
      expect.stringMatching(
        /^warning: sandbox limits fall back to rlimits \(cannot set up cgroups: ENAMETOOLONG/,
      ),
    ]);
  });
});
