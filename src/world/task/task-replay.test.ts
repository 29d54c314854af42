import { describe, expect, it } from "vitest";
import { createWorld } from "../build/world.js";
import { type RunFile, runFileSchema } from "../engine/session.js";
import { DEFAULT_RULES } from "../model/rules.js";
import { loadWorldTask } from "./load.js";
import { checkRunReplay, replayReference, replayRounds, runTaskRecord, runWorld } from "./replay.js";
import type { WorldTaskSpec } from "./schema.js";
import { setupWorldTask, taskRules } from "./setup.js";

const world = createWorld();
const warden = loadWorldTask("world-tasks/warden-hunt.yaml", world);
/** A run file as it comes back from disk. */
const onDisk = (run: RunFile): RunFile => runFileSchema.parse(JSON.parse(JSON.stringify(run)));

describe("task params", () => {
  it("override the default rules in the round-0 state, the session and the run file", () => {
    expect(taskRules(warden)).toEqual(DEFAULT_RULES);
    const spec: WorldTaskSpec = {
      ...warden,
      params: { view_radius: 5, max_move_tiles: 12, respawn_rounds: 1, regen_every_rounds: 0 },
    };
    const rules = {
      ...DEFAULT_RULES,
      viewRadius: 5,
      maxMoveTiles: 12,
      respawnRounds: 1,
      regenEveryRounds: 0,
    };
    expect(setupWorldTask(spec, world).state.rules).toEqual(rules);
    // The reference's second round walks the veteran 23 tiles; under a 12-tile limit it stops halfway.
    const run = replayRounds(spec, world, (spec.reference ?? []).slice(0, 2));
    expect(run.session.state.rules).toEqual(rules);
    expect(run.session.toRunFile(0).rules).toEqual(rules);
    const move = run.results.find((r) => r.agent === "veteran" && r.round === 1)?.result;
    expect(move).toMatchObject({
      ok: true,
      message: expect.stringMatching(/walked 12 tiles toward \(548, 375\)/),
    });
    const vet = run.state.agents.get(run.state.agentIndex.veteran ?? -1);
    expect(vet === undefined ? null : [vet.x, vet.y]).not.toEqual([548, 375]);
  });
});

describe("a task run file", () => {
  const ref = replayReference(warden, world);
  const file = onDisk(ref.session.toRunFile(0));

  it("records the task and replays identically from it", () => {
    expect(file.task).toEqual(runTaskRecord(warden));
    expect(file.contentDigest).not.toBe(world.contentDigest); // the placed warden is part of it
    const out = checkRunReplay(world, file);
    expect(out.reason).toBe("");
    expect(out.verdict).toBe("identical");
    expect(runWorld(world, file).spawnIndex.has("east_warden")).toBe(true);
  });

  it("diverges without its setup and is refused with a tampered spec", () => {
    const { task: _, ...bare } = file;
    expect(checkRunReplay(world, bare).verdict).not.toBe("identical");
    const record = file.task;
    if (record === undefined) throw new Error("no task record");
    const spec = { ...record.spec, seed: 4 };
    expect(checkRunReplay(world, { ...file, task: { ...record, spec } })).toMatchObject({
      verdict: "invalid",
      reason: expect.stringMatching(/does not match its digest/),
    });
    // A consistent record of another setup (the veteran without his sword) plays differently.
    const team = warden.team.map((m) => (m.id === "veteran" ? { ...m, inventory: [] } : m));
    const other = runTaskRecord({ ...warden, team });
    expect(checkRunReplay(world, { ...file, task: other }).verdict).not.toBe("identical");
  });
});
