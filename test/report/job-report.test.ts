import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTasksDir, runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { loadTasks } from "../../src/task/index.js";
import { fixtureTask, jobConfig, tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";

interface RateJson {
  k: number;
  n: number;
}
interface GroupJson {
  key: { agent: string };
  trials: number;
  scored: number;
  pass095: RateJson;
  pass100: RateJson;
  meanReward: { value: number };
  falseFinish: RateJson;
  stoppedEarly: RateJson;
  gradingErrors: { count: number; firstReason: string | null };
  outcomes: Record<string, number>;
}

describe("report over a real job", () => {
  it("prints numbers that an independent recomputation from the trial files agrees with", async () => {
    const jobsDir = tempDir("report");
    const store = await JobStore.open(jobsDir);
    // One bundled task (a real rubric: a fractional partial reward; heatwave-audit's trials are
    // among the cheapest), plus four fixtures whose trials take a second of CPU, not a bundled
    // verifier's three to five: hello (the partial passes only the public check), trivial (nop
    // passes; the partial, with no partial.sh, is an agent error that did not stop itself), slow
    // (an agent timeout) and broken (a grading error).
    const bundled = await loadTasks([join(bundledTasksDir(), "heatwave-audit")]);
    const fixtures = await Promise.all(["hello", "trivial", "slow", "broken"].map(fixtureTask));
    const tasks = [...bundled, ...fixtures];
    const config = jobConfig(tasks, { agents: ["oracle", "partial", "nop"], concurrency: 2 });
    await runJob({ store, config, tasks, provider: getSandboxProvider("bwrap"), resume: false });
    await store.close();

    const { code, stdout, stderr } = await runCli(["report", config.job_id, "--jobs-dir", jobsDir, "--json"]);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as { groups: GroupJson[] };

    // Independent: read every trial's result.json from disk and count by hand.
    const jobDir = join(jobsDir, config.job_id);
    const files = readdirSync(jobDir, { withFileTypes: true })
      // images/ holds the image tasks' build logs (docs/images.md); every other folder is a trial.
      .filter((e) => e.isDirectory() && e.name !== "images")
      .map((e) => JSON.parse(readFileSync(join(jobDir, e.name, "result.json"), "utf8")));
    expect(files).toHaveLength(15);
    for (const agent of ["oracle", "partial", "nop"]) {
      const mine = files.filter((t) => t.agent === agent);
      // Every trial but infra_error counts; a grading_error is R = 0.
      const scored = mine.filter((t) => t.outcome !== "infra_error");
      const rewards: number[] = scored.map((t) => t.reward ?? 0);
      const g = report.groups.find((x) => x.key.agent === agent);
      expect(g, agent).toBeDefined();
      if (!g) continue;
      expect(g.trials).toBe(mine.length);
      expect(g.scored).toBe(scored.length);
      expect(g.pass095).toMatchObject({ k: rewards.filter((r) => r >= 0.95).length, n: scored.length });
      expect(g.pass100).toMatchObject({ k: rewards.filter((r) => r === 1).length, n: scored.length });
      expect(g.meanReward.value).toBeCloseTo(rewards.reduce((a, b) => a + b, 0) / rewards.length, 9);
      const selfStops = scored.filter((t) => t.self_terminated);
      const r = (t: { reward: number | null }) => t.reward ?? 0;
      const ff = selfStops.filter((t) => r(t) >= 0.75 && r(t) < 0.95).length;
      expect(g.falseFinish).toMatchObject({ k: ff, n: selfStops.length });
      expect(g.stoppedEarly).toMatchObject({
        k: selfStops.filter((t) => r(t) < 0.95).length,
        n: selfStops.length,
      });
      expect(g.outcomes.grading_error).toBe(1);
      const broken = mine.find((t) => t.outcome === "grading_error");
      expect(g.gradingErrors.count).toBe(1);
      expect(g.gradingErrors.firstReason).toBe(broken.grading_errors[0] ?? broken.error?.message ?? null);
      expect(g.gradingErrors.firstReason).not.toBeNull();
    }
    // The fixtures pin the facts the recomputation must see.
    const oracle = report.groups.find((x) => x.key.agent === "oracle");
    expect(oracle?.pass100).toMatchObject({ k: 3, n: 5 });
    expect(oracle?.outcomes.agent_timeout).toBe(1);
    const partial = report.groups.find((x) => x.key.agent === "partial");
    expect(partial?.meanReward.value).toBeGreaterThan(0.2);
    expect(partial?.meanReward.value).toBeLessThan(0.8);
    expect(partial?.outcomes.agent_error).toBe(1);
    const nop = report.groups.find((x) => x.key.agent === "nop");
    expect(nop?.pass100).toMatchObject({ k: 1, n: 5 });
    // 15 real trials, 3 of them on the bundled task: half a minute alone, more under a full suite.
  }, 300_000);
});
