import { describe, expect, it } from "vitest";
import { buildJobConfig } from "../../src/runner/job-config.js";
import { planTrials, stressSeed } from "../../src/runner/trial-plan.js";
import { parseJobConfig } from "../../src/store/job-config.js";

/** A job may give each attempt's trial seed outright (world run --seeds) instead of deriving it. */
const tasks = [
  { name: "a", dir: "/t/a", checksum: "x" },
  { name: "b", dir: "/t/b", checksum: "y" },
];

describe("attempt seeds", () => {
  it("make one attempt per seed, each trial seeded with its attempt's seed", () => {
    const config = buildJobConfig({ tasks, agents: ["oracle"], seed: 5, attemptSeeds: [7, 3] });
    expect(config).toMatchObject({ attempts: 2, attempt_seeds: [7, 3] });
    expect(planTrials(config).map((p) => [p.taskName, p.attempt, p.seed])).toEqual([
      ["a", 1, 7],
      ["a", 2, 3],
      ["b", 1, 7],
      ["b", 2, 3],
    ]);
  });

  it("leave the derived seeds alone when absent", () => {
    const config = buildJobConfig({ tasks, agents: ["oracle"], seed: 5, attempts: 2 });
    expect(config.attempt_seeds).toBeUndefined();
    expect(planTrials(config).map((p) => p.seed)).toEqual([
      stressSeed(5, "a", 1),
      stressSeed(5, "a", 2),
      stressSeed(5, "b", 1),
      stressSeed(5, "b", 2),
    ]);
  });

  it("refuse no seeds, repeats, negatives and a different attempt count", () => {
    expect(() => buildJobConfig({ tasks, agents: ["oracle"], attemptSeeds: [] })).toThrow(
      /at least one seed/,
    );
    expect(() => buildJobConfig({ tasks, agents: ["oracle"], attemptSeeds: [1, 1] })).toThrow(
      /repeats a seed/,
    );
    expect(() => buildJobConfig({ tasks, agents: ["oracle"], attemptSeeds: [-1] })).toThrow(/non-negative/);
    // 2^32 + 1 would draw seed 1's hidden cases in the verifier's 32-bit generator.
    expect(() => buildJobConfig({ tasks, agents: ["oracle"], attemptSeeds: [1, 2 ** 32 + 1] })).toThrow(
      /at most 4294967295 \(32 bits\), got 4294967297/,
    );
    expect(buildJobConfig({ tasks, agents: ["oracle"], attemptSeeds: [2 ** 32 - 1] }).attempt_seeds).toEqual([
      2 ** 32 - 1,
    ]);
    expect(() => buildJobConfig({ tasks, agents: ["oracle"], attempts: 3, attemptSeeds: [1, 2] })).toThrow(
      /3 attempts but 2 seeds/,
    );
  });

  it("a config.json edited to fewer seeds than attempts is refused, naming the field", () => {
    const config = buildJobConfig({ tasks, agents: ["oracle"], attemptSeeds: [1, 2] });
    const edited = JSON.stringify({ ...config, attempts: 3 }, null, 2);
    expect(() => parseJobConfig("/jobs/j/config.json", edited)).toThrow(/config\.json: field attempt_seeds/);
    expect(parseJobConfig("/jobs/j/config.json", JSON.stringify(config)).attempt_seeds).toEqual([1, 2]);
  });
});
