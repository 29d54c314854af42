import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sweepGenerators, sweepSeeds } from "../../src/runner/generator-sweep.js";
import { bundledTasksDir } from "../../src/runner/index.js";
import { runOneTrial } from "../support/one-trial.js";
import { sampledBundledTasks } from "./support/dataset-sample.js";

/**
 * The sampled bundled graders' hidden-case generators (dataset-sample.ts), on a fixed-seed sample (the full sweep:
 * `npx tsx bench/generator-sweep.ts`), and what a generator failure makes of a trial.
 */
const tasks = await sampledBundledTasks();
// A fixed seed for meter-billing's oracle trial: its hidden periods (clock changes, rollovers,
// meter exchanges, pro-rated blocks) and the audit cases built on them all come from the generator.
const ORACLE_SEED = 1921589641;

function oracleTrial(dir: string, seed: number) {
  return runOneTrial({
    dir,
    agent: "oracle",
    seed,
    jobId: "gen",
    trialId: `oracle-${seed}`,
    trialDir: mkdtempSync(join(tmpdir(), "longhaul-test-gen-trial-")),
    imagesDir: mkdtempSync(join(tmpdir(), "longhaul-test-gen-img-")),
  });
}

describe("hidden-case generators", () => {
  it.each(tasks.map((t) => [t.name, t] as const))(
    "%s generates on a fixed-seed sample",
    {
      timeout: 120_000,
    },
    async (name, task) => {
      const slow = name === "lander-pilot" || name === "blob-count";
      const seeds = [
        ...sweepSeeds(slow ? 3 : 12, 20261202),
        ...(name === "meter-billing" ? [ORACLE_SEED] : []),
      ];
      const results = await sweepGenerators(task.dir, seeds);
      expect(results.map((r) => r.seed)).toEqual(seeds);
      expect(results.filter((r) => !r.ok)).toEqual([]);
    },
  );

  it("haul-fleet generates on the trial seed whose map once walled its depot in", async () => {
    // Trial seed 1858113504 drew a fleet map with fewer open cells by the depot than mines, and
    // `rng.sample` failed: a grading error on 3% of trials (150 of 5,000 trial seeds).
    const results = await sweepGenerators(join(bundledTasksDir(), "haul-fleet"), [1858113504]);
    expect(results.map((r) => [r.seed, r.ok, r.code])).toEqual([[1858113504, true, 0]]);
  });

  it("the sweep finds a failing generator and names the seed and the error", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "longhaul-test-gen-")), "meter-billing");
    cpSync(join(bundledTasksDir(), "meter-billing"), dir, { recursive: true });
    const gen = join(dir, "tests", "gen.py");
    writeFileSync(
      gen,
      `${readFileSync(gen, "utf8")}\n_build = build\ndef build(rng, kind):\n    if kind == "tou" and int(__import__("os").environ["LONGHAUL_SEED"]) % 2:\n        raise ValueError("planted generator bug")\n    return _build(rng, kind)\n`,
    );
    const results = await sweepGenerators(dir, [2, 3, 4, 5]);
    expect(results.map((r) => [r.seed, r.ok, r.code])).toEqual([
      [2, true, 0],
      [3, false, 87],
      [4, true, 0],
      [5, false, 87],
    ]);
    expect(results[1]?.error).toContain("planted generator bug");

    // In a real trial the same failure is a grading error, never the candidate's zero.
    const r = await oracleTrial(dir, 3);
    expect(r.outcome).toBe("grading_error");
    expect(r.reward).toBeNull();
    expect(r.error?.message ?? "").toContain("exited with 87");
  }, 300_000);

  it("meter-billing's oracle scores 1.0 on a fixed seed of its generator", async () => {
    const r = await oracleTrial(join(bundledTasksDir(), "meter-billing"), ORACLE_SEED);
    expect(r.outcome).toBe("completed");
    expect(r.reward).toBe(1);
  }, 300_000);
});
