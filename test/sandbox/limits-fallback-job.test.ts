import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { CLI } from "../support/cli-process.js";

// A whole `longhaul run` job with $LONGHAUL_CGROUP_ROOT at a folder that holds no cgroups, as on a
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

describe("a job on a host without usable cgroups", () => {
  it("runs every trial under rlimits and warns once for the job", async () => {
    const noCgroups = join(work, "cgroup-root");
    mkdirSync(noCgroups);
    const jobs = join(work, "jobs");
    // Each trial's shell agent reports the limits it runs under: the process cap of the rlimit
    // mode is the trial sandbox's pidsMax (4096); a cgroup leaves the host's own rlimit.
    const args = [
      ...["run", join(FIXTURES, "hello"), "--agent", "oracle", "--agent", "shell"],
      ...["--agent-opt", "cmd=ulimit -u", "-k", "2", "-n", "4", "--seed", "5"],
      ...["--jobs-dir", jobs, "--job", "fallback", "--json"],
    ];
    const r = await run(process.execPath, [CLI, ...args], {
      env: { ...process.env, CI: "true", LONGHAUL_CGROUP_ROOT: noCgroups },
      maxBuffer: 16 * 1024 * 1024,
    });
    const { trials } = JobOutput.parse(JSON.parse(r.stdout));
    expect(trials).toHaveLength(4);
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
        /^warning: sandbox limits fall back to rlimits \(cgroup v1 pids and memory controllers are not mounted\)/,
      ),
    ]);
  });
});
