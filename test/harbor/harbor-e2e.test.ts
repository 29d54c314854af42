import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { loadTasks } from "../../src/task/index.js";
import type { Task } from "../../src/task/types.js";
import { jobConfig, tempDir } from "../runner/helpers.js";
import { ensureTestBaseImage } from "../support/base-image.js";

/**
 * Plain Harbor tasks (Dockerfile with WORKDIR, COPY, ENV and a build-time apt-get install of
 * pytest; a docker_image task; [agent] and [verifier] users) run unchanged: the oracle scores 1 and nop 0 under the docker
 * provider and under the default bwrap provider over the same image, trial for trial.
 */
const HARBOR = resolve(import.meta.dirname, "../fixtures/harbor");
const SOLVABLE = ["csv-aggregate", "sqlite-orders", "word-count", "user-roles"];

let tasks: Task[];
beforeAll(async () => {
  await ensureTestBaseImage();
  tasks = await loadTasks(SOLVABLE.map((n) => join(HARBOR, n)));
}, 900_000);

// Lists what the agent finds in its workdir, where it started, and whether the image's ENV reached it.
const LOOK = 'echo "cwd=$PWD currency=${REPORT_CURRENCY:-}"; ls -A; true';

async function runAll(sandbox: "bwrap" | "docker"): Promise<{ trials: TrialResult[]; jobDir: string }> {
  const store = await JobStore.open(tempDir(`harbor-${sandbox}`));
  try {
    const config = jobConfig(tasks, {
      job_id: `harbor-${sandbox}`,
      agents: ["oracle", "nop", "shell"],
      agent_options: { cmd: LOOK },
      sandbox,
    });
    const out = await runJob({
      store,
      config,
      tasks,
      provider: getSandboxProvider(sandbox),
      resume: false,
    });
    return { trials: out.trials, jobDir: store.jobDir(config.job_id) };
  } finally {
    await store.close();
  }
}

const scores = (trials: TrialResult[]) =>
  Object.fromEntries(
    trials
      .filter((t) => t.agent !== "shell")
      .map((t) => [`${t.task.name}/${t.agent}`, { reward: t.reward, outcome: t.outcome }]),
  );
/** What the shell agent printed in the csv-aggregate trial. */
const looked: Record<string, string> = {};

describe("Harbor tasks under both providers", () => {
  const seen: Record<string, ReturnType<typeof scores>> = {};
  for (const sandbox of ["bwrap", "docker"] as const) {
    it(`${sandbox}: oracle R = 1 and nop R = 0 on every task`, async () => {
      const { trials, jobDir } = await runAll(sandbox);
      seen[sandbox] = scores(trials);
      const shell = trials.find((t) => t.agent === "shell" && t.task.name === "csv-aggregate");
      if (shell === undefined) throw new Error("no shell trial");
      looked[sandbox] = readFileSync(join(jobDir, shell.trial_id, "agent", "shell.stdout.txt"), "utf8");
      const expected = Object.fromEntries(
        SOLVABLE.flatMap((t) => [
          [`${t}/oracle`, { reward: 1, outcome: "completed" }],
          [`${t}/nop`, { reward: 0, outcome: "completed" }],
        ]),
      );
      expect(seen[sandbox]).toEqual(expected);
      // Harbor's trial layout: the reward file sits directly in verifier/.
      for (const t of trials.filter((x) => x.agent === "oracle")) {
        expect(readFileSync(join(jobDir, t.trial_id, "verifier", "reward.txt"), "utf8").trim()).toBe("1");
      }
      // Each image task says what it ran over (built, or reused by checksum) beside the job.
      for (const t of ["csv-aggregate", "sqlite-orders"]) {
        expect(existsSync(join(jobDir, "images", `${t}.build.log`))).toBe(true);
      }
    }, 900_000);
  }

  it("the agent starts in the image's WORKDIR with its COPY'd files and ENV, and no Dockerfile", () => {
    expect(Object.keys(seen).sort()).toEqual(["bwrap", "docker"]);
    expect(seen.bwrap).toEqual(seen.docker);
    for (const sandbox of ["bwrap", "docker"]) {
      const out = looked[sandbox] ?? "";
      expect(out, sandbox).toContain("cwd=/app currency=EUR");
      expect(out.split("\n").sort(), sandbox).toEqual(expect.arrayContaining(["report.py", "sales.csv"]));
      expect(out, sandbox).not.toContain("Dockerfile");
    }
  });
});
