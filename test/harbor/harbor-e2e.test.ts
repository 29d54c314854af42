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
 * pytest; a docker_image task; [agent] and [verifier] users) run unchanged: the oracle scores 1
 * and nop 0 under the default bwrap provider over each task's image, and under the docker provider
 * trial for trial the same. Docker trials cost seconds each, so docker runs a fixed sample: a
 * Dockerfile task with WORKDIR, COPY and ENV (csv-aggregate) and the task with [agent] and
 * [verifier] users (user-roles). `LONGHAUL_HARBOR_DOCKER=all npx vitest run
 * test/harbor/harbor-e2e.test.ts` runs every task under docker too (docs/testing.md).
 */
const HARBOR = resolve(import.meta.dirname, "../fixtures/harbor");
const SOLVABLE = ["csv-aggregate", "sqlite-orders", "word-count", "user-roles"];
const DOCKER_SAMPLE =
  process.env.LONGHAUL_HARBOR_DOCKER === "all" ? SOLVABLE : ["csv-aggregate", "user-roles"];
const RUN_ON = { bwrap: SOLVABLE, docker: DOCKER_SAMPLE } as const;
/** Where each task's image puts the agent, and as whom (the shell agent prints both). */
const STARTS_IN: Record<string, string> = {
  "csv-aggregate": "cwd=/app user=root currency=EUR",
  "sqlite-orders": "cwd=/srv/shop user=root currency=",
  "word-count": "cwd=/app user=root currency=",
  "user-roles": "cwd=/app user=agent currency=",
};

let tasks: Task[];
beforeAll(async () => {
  await ensureTestBaseImage();
  tasks = await loadTasks(SOLVABLE.map((n) => join(HARBOR, n)));
}, 900_000);

// Lists what the agent finds in its workdir, where it started, and whether the image's ENV reached it.
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a JS template.
const LOOK = 'echo "cwd=$PWD user=$(id -un) currency=${REPORT_CURRENCY:-}"; ls -A; true';

async function runAll(sandbox: "bwrap" | "docker"): Promise<{ trials: TrialResult[]; jobDir: string }> {
  const store = await JobStore.open(tempDir(`harbor-${sandbox}`));
  const mine = tasks.filter((t) => RUN_ON[sandbox].includes(t.name));
  try {
    // Two trials at once: a docker trial mostly waits on the daemon.
    const config = jobConfig(mine, {
      job_id: `harbor-${sandbox}`,
      agents: ["oracle", "nop", "shell"],
      agent_options: { cmd: LOOK },
      sandbox,
      concurrency: 2,
    });
    const out = await runJob({
      store,
      config,
      tasks: mine,
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
/** What the shell agent printed, per provider and task. */
const looked: Record<string, Record<string, string>> = {};

describe("Harbor tasks under both providers", () => {
  const seen: Record<string, ReturnType<typeof scores>> = {};
  for (const sandbox of ["bwrap", "docker"] as const) {
    it(`${sandbox}: oracle R = 1 and nop R = 0 on every task`, async () => {
      const { trials, jobDir } = await runAll(sandbox);
      seen[sandbox] = scores(trials);
      const shells = trials.filter((t) => t.agent === "shell");
      expect(shells.map((t) => t.task.name).sort()).toEqual([...RUN_ON[sandbox]].sort());
      looked[sandbox] = Object.fromEntries(
        shells.map((t) => [
          t.task.name,
          readFileSync(join(jobDir, t.trial_id, "agent", "shell.stdout.txt"), "utf8"),
        ]),
      );
      const expected = Object.fromEntries(
        RUN_ON[sandbox].flatMap((t) => [
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
      for (const t of ["csv-aggregate", "sqlite-orders"].filter((x) => RUN_ON[sandbox].includes(x))) {
        expect(existsSync(join(jobDir, "images", `${t}.build.log`))).toBe(true);
      }
    }, 900_000);
  }

  it("the agent starts in the image's WORKDIR as its user, with its COPY'd files and ENV, and no Dockerfile", () => {
    expect(Object.keys(seen).sort()).toEqual(["bwrap", "docker"]);
    // Trial for trial the same on the tasks docker ran.
    const bwrapOnSample = Object.fromEntries(
      Object.entries(seen.bwrap ?? {}).filter(([k]) => DOCKER_SAMPLE.includes(k.split("/")[0] ?? "")),
    );
    expect(seen.docker).toEqual(bwrapOnSample);
    for (const sandbox of ["bwrap", "docker"] as const) {
      for (const task of RUN_ON[sandbox]) {
        const out = looked[sandbox]?.[task] ?? "";
        expect(out.split("\n")[0], `${sandbox} ${task}`).toBe(STARTS_IN[task]);
        expect(out, `${sandbox} ${task}`).not.toContain("Dockerfile");
      }
      const csv = looked[sandbox]?.["csv-aggregate"] ?? "";
      expect(csv.split("\n").sort(), sandbox).toEqual(expect.arrayContaining(["report.py", "sales.csv"]));
    }
  });
});
