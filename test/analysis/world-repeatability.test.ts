import { describe, expect, it } from "vitest";
import { makeTrial } from "../../src/analysis/test-trial.js";
import { worldRepeatability } from "../../src/analysis/world-repeatability.js";

function trial(task: string, attempt: number, seed: number, success: boolean, reward: number) {
  return { ...makeTrial({ task, attempt, seed, reward }), world: { success } };
}

describe("the repeatability table of world trials", () => {
  const trials = [
    trial("a", 1, 11, true, 1),
    trial("a", 2, 12, false, 0.5),
    trial("a", 3, 13, true, 0.75),
    trial("b", 1, 11, false, 0),
    trial("b", 2, 12, false, 0.25),
    trial("b", 3, 13, false, 0.5),
    // Left out: an infrastructure failure and a terminal trial.
    {
      ...makeTrial({ task: "a", attempt: 3, seed: 13, reward: 0, outcome: "infra_error" }),
      world: { success: false },
    },
    makeTrial({ task: "c", attempt: 1, seed: 11, reward: 1 }),
  ];
  const table = worldRepeatability(trials);

  it("has one column per seed and one row per task plus all", () => {
    expect(table.seeds).toEqual([
      { attempt: 1, seed: 11 },
      { attempt: 2, seed: 12 },
      { attempt: 3, seed: 13 },
    ]);
    expect(table.rows.map((r) => r.task)).toEqual(["a", "b", "all"]);
  });

  it("gives SR and PSR per seed, their mean, range and sample sd", () => {
    const a = table.rows[0];
    expect(a?.perSeed.map((c) => [c?.sr, c?.psr])).toEqual([
      [1, 1],
      [0, 0.5],
      [1, 0.75],
    ]);
    expect(a?.sr).toMatchObject({ min: 0, max: 1 });
    expect(a?.sr?.mean).toBeCloseTo(2 / 3);
    expect(a?.sr?.sd).toBeCloseTo(Math.sqrt(1 / 3));
    expect(a?.psr?.mean).toBeCloseTo(0.75);
    expect(a?.psr?.sd).toBeCloseTo(0.25);
    const all = table.rows[2];
    expect(all?.perSeed.map((c) => [c?.sr, c?.psr, c?.trials])).toEqual([
      [0.5, 0.5, 2],
      [0, 0.375, 2],
      [0.5, 0.625, 2],
    ]);
    expect(all?.psr).toMatchObject({ min: 0.375, max: 0.625 });
    expect(all?.psr?.mean).toBeCloseTo(0.5);
  });

  it("has no sd with one seed, and no rows without world trials", () => {
    const one = worldRepeatability(trials.slice(0, 1));
    expect(one.rows[0]?.sr).toEqual({ mean: 1, min: 1, max: 1, sd: null });
    expect(worldRepeatability([makeTrial({ reward: 1 })])).toEqual({ seeds: [], rows: [] });
  });

  it("labels a column by attempt alone when its trials have different seeds", () => {
    const mixed = worldRepeatability([trial("a", 1, 5, true, 1), trial("b", 1, 6, true, 1)]);
    expect(mixed.seeds).toEqual([{ attempt: 1, seed: null }]);
  });
});
