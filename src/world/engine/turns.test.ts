import { describe, expect, it } from "vitest";
import { testRole } from "../../../test/world/kit.js";
import { UserError } from "../../core/index.js";
import { createWorld } from "../build/world.js";
import { DEFAULT_SEED } from "../content/generate-content.js";
import { DEFAULT_RULES } from "../model/rules.js";
import { initialState } from "./init.js";
import { observe } from "./observe.js";
import { checkReplay } from "./replay.js";
import { type RunFile, runFileSchema, Session, TurnError } from "./session.js";
import { stateDigest } from "./snapshot.js";
import { step } from "./step.js";

const world = createWorld(DEFAULT_SEED);
const role = testRole("t_any", { mining: 10 }, [{ item: "coins", qty: 10 }]);
const trio = [
  { id: "a", role: "t_any" },
  { id: "b", role: "t_any" },
  { id: "c", role: "t_any" },
];
const wait = { tool: "wait", args: {} };
const session = (budget = 5): Session => new Session(world, trio, 1, budget, [role]);
const copy = (run: RunFile): RunFile => runFileSchema.parse(JSON.parse(JSON.stringify(run)));

describe("turn order", () => {
  it("is round-robin: an agent acting out of turn is refused with a TurnError and nothing changes", () => {
    const s = session();
    expect(s.turn).toBe("a");
    s.act("a", wait);
    const before = stateDigest(s.state);
    for (const early of ["a", "c"]) {
      expect(() => s.act(early, wait)).toThrow(TurnError);
      expect(() => s.act(early, wait)).toThrow(/it is b's turn in round 0/);
    }
    expect(stateDigest(s.state)).toBe(before);
    expect(s.calls).toHaveLength(1);
    s.act("b", wait);
    s.act("c", wait);
    // After the last agent the round ends by itself and the first agent is up again.
    expect([s.round, s.state.tick, s.turn]).toEqual([1, 1, "a"]);
  });

  it("refuses calls once the round budget is spent", () => {
    const s = session(1);
    s.run(() => wait);
    expect([s.done, s.turn, s.round]).toEqual([true, null, 1]);
    expect(() => s.act("a", wait)).toThrow(/the run is over/);
  });

  it("names an unknown agent id and the known ones in a UserError (step, observe and act)", () => {
    const s = session();
    const state = initialState(world, trio, 1, [role]);
    for (const f of [
      () => step(world, state, "zed", wait),
      () => observe(world, state, "zed"),
      () => s.act("zed", wait),
    ]) {
      expect(f).toThrow(UserError);
      expect(f).toThrow('unknown agent "zed" (known: a, b, c)');
    }
  });
});

describe("complete", () => {
  it("takes only the caller offline; its turns are skipped and the run ends when all are done", () => {
    const s = session(10);
    s.act("a", wait);
    expect(s.act("b", { tool: "complete", args: { summary: "b is done" } }).ok).toBe(true);
    s.act("c", wait);
    expect(s.done).toBe(false);
    expect(s.turn).toBe("a");
    s.act("a", wait);
    expect(s.turn).toBe("c"); // b is skipped, order kept
    expect(() => s.act("b", wait)).toThrow(TurnError);
    s.act("c", { tool: "complete", args: {} });
    s.act("a", { tool: "complete", args: {} });
    expect([s.done, s.round]).toEqual([true, 2]);
    const run = s.toRunFile(DEFAULT_SEED);
    expect(run.completed.map((c) => [c.agent, c.tick])).toEqual([
      ["b", 0],
      ["c", 1],
      ["a", 2],
    ]);
    // A direct step for an agent that completed is a failed call.
    const r = step(world, s.state, "b", wait);
    expect(r.result).toMatchObject({ ok: false, error: { code: "task_complete" } });
  });
});

describe("replay", () => {
  const s = session(4);
  let k = 0;
  s.run(() => (k++ % 2 === 0 ? wait : { tool: "chat", args: { message: `m${k}` } }));
  const run = s.toRunFile(DEFAULT_SEED);

  it("confirms a run that keeps the turn order", () => {
    expect(checkReplay(world, copy(run)).verdict).toBe("identical");
  });

  it("reports a run whose calls break the turn order as invalid, not identical", () => {
    // One agent acting three times in a round (the other agents' calls removed).
    const greedy = copy(run);
    greedy.calls = [0, 1, 2].map(() => ({ round: 0, agent: "a", call: wait }));
    const out = checkReplay(world, greedy);
    expect(out.verdict).toBe("invalid");
    expect(out.reason).toMatch(/call 1 \(a\) breaks the turn order: it is b's turn in round 0/);
    // Swapped order within a round, and a call recorded in the wrong round.
    const swapped = copy(run);
    const [c0, c1] = swapped.calls;
    if (c0 === undefined || c1 === undefined) throw new Error("short run");
    swapped.calls[0] = c1;
    swapped.calls[1] = c0;
    expect(checkReplay(world, swapped).verdict).toBe("invalid");
    const late = copy(run);
    late.calls[0] = { ...(late.calls[0] ?? { agent: "a", call: wait }), round: 3 };
    expect(checkReplay(world, late).reason).toMatch(/recorded in round 3/);
  });

  it("says different when the content pack digest differs", () => {
    const foreign = { ...copy(run), contentDigest: "0".repeat(64) };
    const out = checkReplay(world, foreign);
    expect(out.verdict).toBe("different");
    expect(out.reason).toContain(`recorded ${"0".repeat(64)}, loaded ${world.contentDigest}`);
  });

  it("plays by the rules recorded in the run", () => {
    const rules = { ...DEFAULT_RULES, viewRadius: 12, maxMoveTiles: 5 };
    const r = new Session(world, trio, 1, 2, [role], rules);
    r.run(() => ({ tool: "move_to", args: { x: 560, y: 400 } }));
    const file = copy(r.toRunFile(DEFAULT_SEED));
    expect(file.rules).toEqual(rules);
    expect(r.observe("a").terrain).toHaveLength(25);
    const moves = r.events.filter((e) => e.type === "moved").map((e) => e.data.steps);
    expect(moves.length).toBe(6);
    expect(moves.every((n) => n === 5)).toBe(true);
    expect(checkReplay(world, file).verdict).toBe("identical");
    // The same calls under the default rules walk further: not the recorded run.
    expect(checkReplay(world, { ...file, rules: DEFAULT_RULES }).verdict).toBe("different");
  });
});
