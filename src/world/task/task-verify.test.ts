import { describe, expect, it } from "vitest";
import { roleDocument } from "../build/role-doc.js";
import { createWorld } from "../build/world.js";
import { ROLES, roleById } from "../model/roles.js";
import { loadWorldTask } from "./load.js";
import { evalPredicate, type PredicateContext, registerWorldPredicate } from "./predicates.js";
import { replayReference, replayRounds, replayWaits } from "./replay.js";
import type { WorldPredicate, WorldTaskSpec } from "./schema.js";
import { agentDocument, setupWorldTask, taskWorld } from "./setup.js";
import { roundZeroTraps, verifyWorldRun } from "./verify.js";

const world = createWorld();
const load = (name: string): WorldTaskSpec => loadWorldTask(`world-tasks/${name}.yaml`, world);
const arrows = load("bronze-arrows");
const arrowsRun = replayReference(arrows, world);

describe("the example world tasks", () => {
  for (const name of ["bronze-arrows", "market-supply", "warden-hunt"]) {
    it(`${name}: the reference succeeds with every checkpoint; waiting fails`, () => {
      const spec = load(name);
      const ref = name === "bronze-arrows" ? arrowsRun : replayReference(spec, world);
      expect(ref.results.filter((r) => !r.result.ok)).toEqual([]);
      const v = verifyWorldRun(spec, world, ref.state, ref.events);
      expect(v.success).toBe(true);
      expect(v.psr).toBe(1);
      expect(ref.state.agents.toArray().some((a) => a.completed !== null)).toBe(true);
      const idle = replayWaits(spec, world);
      expect(idle.rounds).toBe(spec.max_rounds);
      const w = verifyWorldRun(spec, world, idle.state, idle.events);
      expect(w.success).toBe(false);
      expect(w.psr).toBeLessThan(1);
      expect(roundZeroTraps(spec, world)).toEqual([]);
    });
  }
});

describe("setupWorldTask", () => {
  it("applies skill overrides, task inventory and equipment, and places mobs in a derived world", () => {
    const spec = load("warden-hunt");
    const { state, agents, world: w } = setupWorldTask(spec, world);
    expect(agents.map((a) => a.id)).toEqual(["veteran", "guard", "cook"]);
    const vet = state.agents.get(state.agentIndex.veteran ?? -1);
    expect(vet?.skills.attack?.level).toBe(60);
    expect(vet?.maxHp).toBe(20 + 2 * 60);
    expect(vet?.hp).toBe(vet?.maxHp);
    const items = (vet?.inventory ?? []).map((l) => state.lots.get(l)?.item);
    expect(items).toEqual(expect.arrayContaining(["bronze_dagger", "bronze_sword"]));
    const body = state.lots.get(vet?.equipment.body ?? -1);
    expect(body).toMatchObject({
      item: "bronze_platebody",
      holder: "equipped:veteran",
      origin: { kind: "start" },
    });
    expect(world.spawnIndex.has("east_warden")).toBe(false);
    expect(w.spawnIndex.get("east_warden")).toBe(world.pack.spawns.length);
    expect(state.mobs.length).toBe(world.pack.spawns.length + 1);
    expect(taskWorld(spec, world)).toBe(w);
    const run = replayReference(spec, world);
    const kill = run.events.find((e) => e.type === "killed" && e.data.mob === "east_warden");
    expect(kill?.agent).toBe("veteran");
  });

  it("depletes harvest points, so gatherers walk past them", () => {
    const spec = load("market-supply");
    const { state } = setupWorldTask(spec, world);
    const merchant = state.agents.get(state.agentIndex.merchant ?? -1);
    expect([merchant?.x, merchant?.y]).toEqual([530, 386]);
    expect(state.nodes.get(world.nodeIndex.get("node_777") ?? -1)).toBe(1000);
    const run = replayReference(spec, world);
    const trees = run.events.filter((e) => e.type === "harvested" && e.data.resource === "pine_tree");
    expect(trees.length).toBe(2);
    for (const e of trees) {
      const n = world.pack.nodes[world.nodeIndex.get(String(e.data.node)) ?? -1];
      expect(Math.max(Math.abs((n?.x ?? 0) - 528), Math.abs((n?.y ?? 0) - 384))).toBeGreaterThan(45);
    }
    // The pine tree nearest the town is depleted: a lumberjack standing next to it finds none in view.
    const toTree = [
      [{ agent: "lumberjack", call: { tool: "move_to" as const, args: { x: 500, y: 386 } } }],
      [{ agent: "lumberjack", call: { tool: "move_to" as const, args: { x: 500, y: 401 } } }],
      [{ agent: "lumberjack", call: { tool: "harvest_resource" as const, args: { target: "pine_tree" } } }],
    ];
    const there = replayRounds(spec, world, toTree)
      .results.filter((r) => r.agent === "lumberjack")
      .map((r) => r.result);
    expect(there.slice(0, 2).every((r) => r.ok)).toBe(true);
    expect(there[2]).toMatchObject({ ok: false, error: { code: "target_gone" } });
    const plain = replayRounds({ ...spec, world: { mobs: [], depleted_nodes: [] } }, world, toTree);
    const near = plain.events.find((e) => e.type === "harvested" && e.data.resource === "pine_tree");
    expect(near?.data.node).toBe("node_777");
  });
});

describe("the fisher and the cook", () => {
  it("market-supply's shrimp pass from the fisher to the cook; no role both catches and cooks", () => {
    const spec = load("market-supply");
    expect(spec.team.map((m) => m.role)).toEqual(["lumberjack", "miner", "fisher", "cook", "merchant"]);
    const run = replayReference(spec, world);
    const who = (type: string, item: string) =>
      new Set(run.events.filter((e) => e.type === type && e.data.item === item).map((e) => e.agent));
    expect(who("harvested", "raw_shrimp")).toEqual(new Set(["fisher"]));
    expect(who("crafted", "cooked_shrimp")).toEqual(new Set(["cook"]));
    const handed = run.events.filter((e) => e.type === "transferred" && e.data.item === "raw_shrimp");
    expect(handed.map((e) => [e.agent, e.data.to])).toEqual([["fisher", "cook"]]);
    expect(roleById("fisher")?.tools).not.toContain("craft_item");
    expect(roleById("cook")?.tools).not.toContain("harvest_resource");
  });

  it("food bought from a shop does not stand in for the team's catching and cooking", () => {
    const market = load("market-supply");
    const bought = replayRounds(market, world, [
      [
        {
          agent: "merchant",
          call: {
            tool: "trade_npc" as const,
            args: { npc: "greenvale_cook", action: "buy" as const, item: "cooked_shrimp", count: 3 },
          },
        },
      ],
    ]);
    expect(bought.results.find((r) => r.agent === "merchant")?.result.ok).toBe(true);
    const m = verifyWorldRun(market, world, bought.state, bought.events);
    expect(
      evalPredicate(
        { holds: { item: "cooked_shrimp", qty: 3, agent: "merchant" } },
        { spec: market, world, state: bought.state, events: bought.events },
      ).holds,
    ).toBe(true);
    expect(m.success).toBe(false);
    expect(m.successDetail).toContain("fisher gathered 0/3 raw_shrimp");

    const warden = load("warden-hunt");
    const buyCooked = replayRounds(warden, world, [
      [
        {
          agent: "cook",
          call: {
            tool: "trade_npc" as const,
            args: { npc: "greenvale_cook", action: "buy" as const, item: "cooked_shrimp", count: 2 },
          },
        },
      ],
      [
        {
          agent: "cook",
          call: { tool: "transfer_items" as const, args: { to: "veteran", item: "cooked_shrimp", count: 2 } },
        },
      ],
    ]);
    expect(buyCooked.results.filter((r) => r.agent === "cook").every((r) => r.result.ok)).toBe(true);
    const w = verifyWorldRun(warden, world, buyCooked.state, buyCooked.events);
    expect(w.successDetail).toContain("cook delivered to veteran 2/2 cooked_shrimp");
    expect(w.successDetail).toContain("cook crafted 0/2 cooked_shrimp");
  });
});

describe("agentDocument", () => {
  it("gives the role's generated document by default, else the task's text", () => {
    const doc = agentDocument(arrows, world, "smith");
    expect(doc).toBe(roleDocument(world, roleById("smith") ?? ROLES[0]!, world.pack.world.spawn));
    expect(doc).toContain("bronze_bar");
    const custom = {
      ...arrows,
      team: arrows.team.map((m) => (m.id === "smith" ? { ...m, role_document: "Only smelt." } : m)),
    };
    expect(agentDocument(custom, world, "smith")).toBe("Only smelt.");
  });
});

describe("predicates", () => {
  const ctx: PredicateContext = { spec: arrows, world, state: arrowsRun.state, events: arrowsRun.events };
  const check = (p: WorldPredicate): [boolean, string] => {
    const r = evalPredicate(p, ctx);
    return [r.holds, r.detail];
  };

  it("count holdings, crafts, harvests, deliveries and kills with one-line details", () => {
    expect(check({ holds: { item: "bronze_arrow", qty: 30 } })).toEqual([
      false,
      "team holds 15/30 bronze_arrow",
    ]);
    expect(check({ holds: { item: "bronze_arrow", qty: 15, agent: "smith" } })).toEqual([
      false,
      "smith holds 0/15 bronze_arrow",
    ]);
    expect(check({ crafted: { item: "pine_shaft", qty: 15, agent: "fletcher" } })).toEqual([
      true,
      "fletcher crafted 15/15 pine_shaft",
    ]);
    expect(check({ gathered: { item: "copper_ore", qty: 1, agent: "miner" } })[0]).toBe(true);
    expect(check({ gathered: { item: "copper_ore", qty: 1, agent: "lumberjack" } })[0]).toBe(false);
    expect(check({ delivered: { item: "copper_ore", qty: 1, to: "smith", from: "miner" } })).toEqual([
      true,
      "miner delivered to smith 1/1 copper_ore",
    ]);
    expect(check({ delivered: { item: "copper_ore", qty: 1, to: "fletcher" } })[0]).toBe(false);
    expect(check({ killed: { mob: "field_rat", qty: 1 } })).toEqual([false, "team killed 0/1 field_rat"]);
  });

  it("check equipment, visits, deaths and the round count", () => {
    expect(check({ equipped: { item: "bronze_arrow" } })).toEqual([
      false,
      "nobody in the team has bronze_arrow equipped",
    ]);
    const smith = arrowsRun.events.find((e) => e.type === "moved" && e.agent === "smith");
    const to = smith?.data.to as [number, number];
    expect(check({ visited: { region: { x: to[0], y: to[1], w: 1, h: 1 }, agent: "smith" } })[0]).toBe(true);
    expect(check({ visited: { region: { x: to[0], y: to[1], w: 1, h: 1 }, agent: "miner" } })[0]).toBe(false);
    expect(check({ visited: { region: { x: 0, y: 0, w: 5, h: 5 } } })).toEqual([
      false,
      "no team member visited (0,0 5×5)",
    ]);
    expect(check({ all_alive: true })).toEqual([true, "no agent was defeated"]);
    const i = arrowsRun.state.agentIndex.miner ?? -1;
    const miner = arrowsRun.state.agents.get(i);
    if (miner === undefined) throw new Error("no miner");
    const fallen = { ...arrowsRun.state, agents: arrowsRun.state.agents.set(i, { ...miner, deaths: 1 }) };
    expect(evalPredicate({ all_alive: true }, { ...ctx, state: fallen })).toEqual({
      holds: false,
      detail: "defeated: miner",
    });
    expect(check({ within_rounds: 14 })).toEqual([true, "finished in 14/14 rounds"]);
    expect(check({ within_rounds: 13 })[0]).toBe(false);
  });

  it("compose with all, any and not, and call registered custom predicates with their arguments", () => {
    const yes: WorldPredicate = { crafted: { item: "bronze_bar", qty: 1 } };
    const no: WorldPredicate = { crafted: { item: "bronze_bar", qty: 2 } };
    expect(check({ all: [yes, no] })[0]).toBe(false);
    expect(check({ all: [yes, no] })[1]).toBe(
      "all(✓ team crafted 1/1 bronze_bar; ✗ team crafted 1/2 bronze_bar)",
    );
    expect(check({ any: [no, yes] })[0]).toBe(true);
    expect(check({ not: no })).toEqual([true, "not (team crafted 1/2 bronze_bar)"]);
    registerWorldPredicate("verify_test_lots", (c, args) => {
      const n = c.state.lots.length;
      return { holds: n >= Number(args.min), detail: `${n} lots` };
    });
    expect(check({ custom: "verify_test_lots", args: { min: 1 } })[0]).toBe(true);
    expect(check({ custom: "verify_test_lots", args: { min: 100000 } })[0]).toBe(false);
    expect(check({ custom: "not_registered_here", args: {} })[0]).toBe(false);
  });
});

describe("verifyWorldRun and roundZeroTraps", () => {
  it("weights checkpoints for PSR on a partial run", () => {
    const partial = replayRounds(arrows, world, (arrows.reference ?? []).slice(0, 5));
    const v = verifyWorldRun(arrows, world, partial.state, partial.events);
    expect(v.success).toBe(false);
    expect(v.checkpoints.filter((c) => c.reached).map((c) => c.id)).toEqual(["log_delivered", "shafts_cut"]);
    expect(v.psr).toBeCloseTo(2 / 9, 10);
    expect(v.successDetail).toContain("✗ fletcher holds 0/15 bronze_arrow");
  });

  it("names conditions that already hold at round 0", () => {
    const trap: WorldTaskSpec = {
      ...arrows,
      success: { not: { killed: { mob: "field_rat", qty: 1 } } },
      checkpoints: [
        { id: "alive", predicate: { all_alive: true }, weight: 1 },
        { id: "feathers", predicate: { holds: { item: "feather", qty: 15, agent: "fletcher" } }, weight: 1 },
        { id: "more_feathers", predicate: { holds: { item: "feather", qty: 16 } }, weight: 1 },
      ],
    };
    expect(roundZeroTraps(trap, world)).toEqual(["success", "alive", "feathers"]);
  });
});
