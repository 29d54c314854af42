import { describe, expect, it } from "vitest";
import { worldCceSummary } from "../../src/analysis/world-cce.js";
import type { TrialResult, WorldCce } from "../../src/core/index.js";
import { traceClosure } from "../../src/world/cce/closure.js";
import { indexRun, type TracedLot } from "../../src/world/cce/log.js";
import { cceMetrics } from "../../src/world/cce/metrics.js";
import type { JsonValue, WorldEvent } from "../../src/world/model/types.js";
import { cceSamplesOf } from "../../src/world/trial/cce-option.js";

/**
 * Hand-built event logs whose closures are known: the tracer is checked without a world. Each
 * call is an `action` event; `fx` adds an effect of the last call.
 */
class LogBuilder {
  readonly events: WorldEvent[] = [];
  readonly lots: TracedLot[] = [];
  private seq = 0;
  private last = -1;

  call(agent: string, tool: string, args: Record<string, JsonValue> = {}, tick = 0): number {
    this.last = this.seq++;
    this.events.push({
      seq: this.last,
      tick,
      agent,
      type: "action",
      action: this.last,
      data: { tool, args, ok: true },
    });
    return this.last;
  }

  fx(type: string, data: Record<string, JsonValue>): number {
    const seq = this.seq++;
    const agent = this.events[this.events.length - 1]?.agent ?? null;
    this.events.push({ seq, tick: 0, agent, type, action: this.last, data });
    return seq;
  }

  /** A harvest producing a new lot. */
  harvest(agent: string, item: string): { call: number; lot: number } {
    const call = this.call(agent, "harvest_resource", { target: `${item}_node` });
    const id = this.lots.length;
    const ev = this.fx("harvested", { item, qty: 1, lot: id, resource: `${item}_node` });
    this.lots.push({
      id,
      item,
      origin: { event: ev, kind: "harvest", by: agent },
      from: [],
      transfers: [],
      holder: `agent:${agent}`,
    });
    return { call, lot: id };
  }

  transfer(from: string, to: string, lot: number): number {
    const call = this.call(from, "transfer_items", { to, item: this.lot(lot).item });
    const ev = this.fx("transferred", { to, item: this.lot(lot).item, qty: 1, lots: [lot] });
    const l = this.lot(lot);
    this.lots[lot] = {
      ...l,
      holder: `agent:${to}`,
      transfers: [...l.transfers, { event: ev, from, to, qty: 1 }],
    };
    return call;
  }

  craft(agent: string, item: string, inputs: number[]): { call: number; lot: number } {
    const call = this.call(agent, "craft_item", { item });
    const id = this.lots.length;
    const ev = this.fx("crafted", {
      item,
      qty: 1,
      lot: id,
      consumed: inputs.map((l) => ({ lot: l, qty: 1 })),
    });
    for (const l of inputs) this.lots[l] = { ...this.lot(l), holder: "used" };
    this.lots.push({
      id,
      item,
      origin: { event: ev, kind: "craft", by: agent },
      from: inputs.map((l) => ({ lot: l, qty: 1 })),
      transfers: [],
      holder: `agent:${agent}`,
    });
    return { call, lot: id };
  }

  lot(id: number): TracedLot {
    const l = this.lots[id];
    if (l === undefined) throw new Error(`no lot ${id}`);
    return l;
  }
}

describe("the causal closure of hand-built event logs", () => {
  it("follows an item chain through a hand-over and leaves useless calls out", () => {
    const b = new LogBuilder();
    const ore = b.harvest("miner", "copper_ore"); // call 0: contributes (the ore is smelted)
    const spare = b.harvest("miner", "tin_ore"); // useless: never used
    const give = b.transfer("miner", "smith", ore.lot);
    b.call("fletcher", "wait");
    const bar = b.craft("smith", "copper_bar", [ore.lot]);
    const log = indexRun(b.events, b.lots);
    const c = traceClosure(log, [bar.call]);
    expect([...c.members.keys()].sort((x, y) => x - y)).toEqual([ore.call, give, bar.call]);
    expect(c.members.get(bar.call)).toBe("witness");
    expect(c.members.get(ore.call)).toBe("item");
    expect(c.members.has(spare.call)).toBe(false);
    const m = cceMetrics(log, c, ["miner", "smith", "fletcher"], 0);
    expect([m.contributing, m.actions, m.waits]).toEqual([3, 5, 1]);
    expect(m.cce).toBeCloseTo(3 / 5);
    expect(m.cce_active).toBeCloseTo(3 / 4);
    expect(m.agents.map((a) => [a.id, a.contributing, a.actions])).toEqual([
      ["miner", 2, 3],
      ["smith", 1, 1],
      ["fletcher", 0, 1],
    ]);
    expect(m.agents[0]?.pac).toBeCloseTo(2 / 3);
    // Call indices, not seqs: the witness is the fifth call.
    expect(m.witnesses).toEqual([4]);
    expect(m.closure).toEqual([0, 2, 4]);
  });

  it("leaves out a hand-over made after the call it would explain", () => {
    const b = new LogBuilder();
    const ore = b.harvest("miner", "copper_ore");
    const read = b.call("miner", "wait");
    b.transfer("miner", "smith", ore.lot); // after the witness: no cause of it
    const log = indexRun(b.events, b.lots);
    // The witness is the harvest itself: later hand-overs of its lot are not its causes.
    expect([...traceClosure(log, [ore.call]).members.keys()]).toEqual([ore.call]);
    expect(read).toBe(2);
  });

  it("credits a message whose coordinates the recipient then walks to, and a relay before it", () => {
    const b = new LogBuilder();
    const stroll = b.call("relay", "move_to", { x: 10, y: 10 }); // talking needs no place: not traced
    const tip = b.call("scout", "chat", { to: "relay", message: "copper rock at (512, 400)" });
    const relay = b.call("relay", "chat", { message: "go to 512,400 for copper" });
    const chatter = b.call("scout", "chat", { message: "nice weather" }); // nothing used from it
    const walk = b.call("miner", "move_to", { x: 512, y: 400 });
    const ore = b.harvest("miner", "copper_ore");
    const log = indexRun(b.events, b.lots);
    const c = traceClosure(log, [ore.call]);
    expect(c.members.get(walk)).toBe("position");
    expect(c.members.get(relay)).toBe("information");
    // The relay learned the coordinates from the scout's message: the chain goes back to it.
    expect(c.members.get(tip)).toBe("information");
    expect(c.members.has(chatter)).toBe(false);
    expect(c.members.has(stroll)).toBe(false);
    // A recipient that knew the place before the run learned nothing from the message.
    const known = traceClosure(log, [ore.call], { prior: { miner: "the copper rock is at 512,400" } });
    expect(known.members.has(relay)).toBe(false);
    expect(known.members.has(walk)).toBe(true);
  });

  it("does not credit a message that arrived after the agent already used what it says", () => {
    const b = new LogBuilder();
    b.call("miner", "move_to", { x: 512, y: 400 });
    const late = b.call("scout", "chat", { message: "copper at 512,400" });
    const walk = b.call("miner", "move_to", { x: 512, y: 400 });
    const ore = b.harvest("miner", "copper_ore");
    const c = traceClosure(indexRun(b.events, b.lots), [ore.call]);
    expect(c.members.has(walk)).toBe(true);
    expect(c.members.has(late)).toBe(false);
  });
});

function cceOf(contributing: number, actions: number, success: boolean): WorldCce {
  return {
    actions,
    waits: 0,
    contributing: success ? contributing : 0,
    cce: success ? contributing / actions : 0,
    cce_active: success ? contributing / actions : 0,
    witnesses: [],
    closure: [],
    reasons: {},
    agents: [
      {
        id: "a",
        actions,
        waits: 0,
        contributing: success ? contributing : 0,
        pac: success ? contributing / actions : 0,
        share: 1,
      },
    ],
    counterfactual: {
      seed: 1,
      inside: { sampled: 4, necessary: 3 },
      outside: { sampled: 2, breaking: 0 },
      calls: [],
    },
    trace_ms: 0,
  };
}

function trial(task: string, success: boolean, cce: WorldCce, modifiers: string[] = []): TrialResult {
  return {
    task: { name: task, category: "crafting" },
    agent: "team",
    model: null,
    attempt: 1,
    outcome: "completed",
    self_terminated: true,
    reward: success ? 1 : 0.5,
    subtasks: [],
    usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0, turns: 0 },
    world: { success, cce, modifiers },
  } as unknown as TrialResult;
}

describe("CCE over a job", () => {
  it("counts a failed task as 0 in the macro mean, leaves it out of the success-conditional one and keeps its calls in the pooled one", () => {
    const s = worldCceSummary([
      trial("t1", true, cceOf(6, 10, true)),
      trial("t2", true, cceOf(2, 10, true)),
      trial("t3", false, cceOf(5, 20, false)),
      trial("t1", true, cceOf(1, 10, true), ["no-comm"]),
    ]);
    // Another condition is another row, never pooled with the plain runs.
    expect(s?.groups.map((x) => [x.label, x.tasks])).toEqual([
      ["team", 3],
      ["team [no-comm]", 1],
    ]);
    const g = s?.groups[0];
    expect(g?.macro.value).toBeCloseTo((0.6 + 0.2 + 0) / 3);
    expect(g?.successConditional.value).toBeCloseTo(0.4);
    expect(g?.successConditional.n).toBe(2);
    expect(g?.pooled).toMatchObject({ num: 8, den: 40 });
    expect(g?.pac).toMatchObject({ n: 2, min: 0.2, max: 0.6, zero: 0 });
    // The failed trial was not replayed (it had nothing to check); the others add up.
    expect(g?.necessity).toMatchObject({ num: 9, den: 12 });
    expect(g?.outsideBreaks).toMatchObject({ num: 0, den: 6 });
  });
});

describe("the world_cce_samples agent option", () => {
  it("defaults to 8, takes 0 to turn the replays off, and refuses anything but a whole number up to 1000", () => {
    expect(cceSamplesOf({})).toBe(8);
    expect(cceSamplesOf({ world_cce_samples: "0" })).toBe(0);
    expect(cceSamplesOf({ world_cce_samples: "25" })).toBe(25);
    for (const bad of ["", "-1", "2.5", "x", "1001"])
      expect(() => cceSamplesOf({ world_cce_samples: bad }), bad).toThrow(
        /world_cce_samples: expected a whole number/,
      );
  });
});
