import { describe, expect, it } from "vitest";
import { createWorld } from "../../src/world/build/world.js";
import { DEFAULT_SEED } from "../../src/world/content/generate-content.js";
import { checkRunReplay, loadWorldTask, replayReference, replayWaits } from "../../src/world/task/index.js";
import { playWorldTask } from "../../src/world/trial/play.js";
import { taskFile } from "./task-sample.js";

// Rounds played: a run that stops because every agent completed mid-round played that round too.
// The run file, results and `world check` give one count, the one `world list` and the calls say.

const world = createWorld();

describe("rounds played", () => {
  it("count the round every agent completed in (warden-hunt: 11 reference rounds, 11 played)", () => {
    const spec = loadWorldTask(taskFile("warden-hunt"), world);
    const ref = replayReference(spec, world);
    expect(ref.session.done).toBe(true);
    const lastCall = Math.max(...ref.session.calls.map((c) => c.round));
    expect(ref.rounds).toBe(spec.reference?.length);
    expect(ref.rounds).toBe(lastCall + 1);
    const run = ref.session.toRunFile(DEFAULT_SEED);
    expect(run.rounds).toBe(lastCall + 1);
    expect(checkRunReplay(world, run).verdict).toBe("identical");
  });

  it("do not count a round whose only moves were skipping agents that had completed", () => {
    // bronze-arrows: the lumberjack and the miner complete early; the smith and the fletcher in
    // the last round, which starts by skipping the two. 14 reference rounds, 14 played.
    const spec = loadWorldTask(taskFile("bronze-arrows"), world);
    const ref = replayReference(spec, world);
    expect(ref.rounds).toBe(14);
    expect(ref.session.toRunFile(DEFAULT_SEED).rounds).toBe(14);
  });

  it("are the budget when the run ends there", () => {
    const spec = loadWorldTask(taskFile("warden-hunt"), world);
    const idle = replayWaits(spec, world);
    expect(idle.rounds).toBe(spec.max_rounds);
    expect(idle.session.toRunFile(DEFAULT_SEED).rounds).toBe(spec.max_rounds);
  });

  it("a team's play reports the same count (warden-hunt, round-budget 11 as the audit ran it)", async () => {
    const spec = loadWorldTask(taskFile("warden-hunt"), world);
    const r = await playWorldTask({ ...spec, max_rounds: 11 }, world, { team: "oracle", seed: 1 });
    expect(r.verdict.success).toBe(true);
    expect(r.rounds).toBe(11);
  });

  it("a run file written before the last round was counted still replays identically", () => {
    const spec = loadWorldTask(taskFile("warden-hunt"), world);
    const run = replayReference(spec, world).session.toRunFile(DEFAULT_SEED);
    expect(checkRunReplay(world, { ...run, rounds: run.rounds - 1 }).verdict).toBe("identical");
    const off = checkRunReplay(world, { ...run, rounds: run.rounds + 1 });
    expect(off.verdict).toBe("different");
    expect(off.reason).toBe(`the run records ${run.rounds + 1} rounds; its calls play ${run.rounds}`);
  });
});
