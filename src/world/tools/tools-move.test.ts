import { describe, expect, it } from "vitest";
import { codeOf, Harness, testRole } from "../../../test/world/kit.js";
import type { AgentSpec } from "../engine/init.js";
import { DEFAULT_RULES } from "../model/rules.js";

const gatherer = testRole("t_gatherer", { mining: 40, woodcutting: 1, attack: 40, defence: 40 }, [
  { item: "bronze_pickaxe", qty: 1 },
]);

// Places in the default world: a field rat east of town, a copper rock west of it.
const RAT = { id: "mob_263", x: 584, y: 367 };
const BY_RAT = { x: 578, y: 368 };
const COPPER = { id: "node_829", x: 486, y: 362 };

function harness(at?: { x: number; y: number }, rules = {}): Harness {
  const spec = (id: string): AgentSpec =>
    at === undefined ? { id, role: "t_gatherer" } : { id, role: "t_gatherer", at };
  return new Harness([spec("a"), spec("b")], [gatherer], 1, rules);
}

describe("move_to", () => {
  it("walks to a reachable tile and records the path", () => {
    const h = harness();
    const r = h.call("a", "move_to", { x: 540, y: 390 });
    expect(codeOf(r)).toBe("ok");
    expect([h.agent("a").x, h.agent("a").y]).toEqual([540, 390]);
    const moved = h.events.find((e) => e.type === "moved");
    expect(moved?.data.steps).toBeGreaterThanOrEqual(Math.abs(540 - 525) + Math.abs(390 - 381));
  });
  it("walks at most maxMoveTiles per call toward a far tile, and gets there over several calls", () => {
    const h = harness();
    const cap = DEFAULT_RULES.maxMoveTiles;
    const r = h.call("a", "move_to", { x: 560, y: 400 }); // 84 tiles on foot
    expect(codeOf(r)).toBe("ok");
    const first = h.events.filter((e) => e.type === "moved");
    expect(first.map((e) => e.data.steps)).toEqual([cap]);
    const a = h.agent("a");
    expect([a.x, a.y]).not.toEqual([560, 400]);
    // It stands on a walkable tile at most `cap` steps from where it started, closer to the goal.
    expect(Math.abs(a.x - 525) + Math.abs(a.y - 381)).toBeLessThanOrEqual(cap);
    expect(h.world.paths.find(a.x, a.y, 560, 400)?.cost).toBeLessThan(84);
    for (let k = 0; k < 4 && (h.agent("a").x !== 560 || h.agent("a").y !== 400); k++)
      h.call("a", "move_to", { x: 560, y: 400 });
    expect([h.agent("a").x, h.agent("a").y]).toEqual([560, 400]);
    for (const e of h.events.filter((x) => x.type === "moved")) expect(e.data.steps).toBeLessThanOrEqual(cap);
  });
  it("rejects tiles off the map, blocked tiles and unreachable ones", () => {
    const h = harness();
    expect(codeOf(h.call("a", "move_to", { x: 5000, y: 1 }))).toBe("invalid_args");
    expect(codeOf(h.call("a", "move_to", { x: 0, y: 0 }))).toBe("blocked");
    // The dungeon floor is walkable but sealed off: only its portal leads there.
    expect(codeOf(h.call("a", "move_to", { x: 975, y: 700 }))).toBe("unreachable");
    expect(codeOf(h.call("a", "move_to", { x: "far" }))).toBe("invalid_args");
  });
});

describe("enter_portal", () => {
  it("takes the agent through a portal in view, and refuses far or locked ones", () => {
    const h = harness();
    // a stands at (525, 381): Saltmere's portal (524, 378) is in view, Frosthold's (535, 385) is not.
    expect(codeOf(h.call("a", "enter_portal", { portal: "portal_greenvale_frosthold" }))).toBe("not_in_view");
    expect(codeOf(h.call("a", "enter_portal", { portal: "portal_greenvale_saltmere" }))).toBe("ok");
    const p = h.world.portal.get("portal_greenvale_saltmere");
    expect([h.agent("a").x, h.agent("a").y]).toEqual([p?.toX, p?.toY]);
    const byDoor = harness({ x: 538, y: 384 });
    expect(codeOf(byDoor.call("b", "enter_portal", { portal: "door_greenvale_vault" }))).toBe("locked");
    expect(codeOf(byDoor.call("b", "enter_portal", { portal: "nowhere" }))).toBe("unknown_target");
  });
});

describe("harvest_resource", () => {
  it("harvests the nearest point of a kind, depletes it, and respawns it later", () => {
    // A wide view and a long walk, so that three copper rocks are candidates in one call.
    const h = harness(undefined, { viewRadius: 64, maxMoveTiles: 1000 });
    const r = h.call("a", "harvest_resource", { target: "copper_rock", count: 3 });
    expect(codeOf(r)).toBe("ok");
    expect(h.count("a", "copper_ore")).toBe(3);
    const nodes = h.events.filter((e) => e.type === "harvested").map((e) => String(e.data.node));
    expect(new Set(nodes).size).toBe(3);
    const last = nodes[2] ?? ""; // where the agent now stands
    expect(codeOf(h.call("a", "harvest_resource", { target: last }))).toBe("target_gone");
    h.tick(50);
    expect(codeOf(h.call("a", "harvest_resource", { target: last }))).toBe("ok");
  });
  it("only picks points within the agent's view", () => {
    const h = harness();
    expect(codeOf(h.call("a", "harvest_resource", { target: "copper_rock" }))).toBe("not_in_view");
    expect(codeOf(h.call("a", "harvest_resource", { target: COPPER.id }))).toBe("not_in_view");
    const near = harness(COPPER);
    const r = near.call("a", "harvest_resource", { target: "copper_rock", count: 3 });
    // Only one copper rock is in view: one harvest, then the call stops (no walking off to others).
    expect(r).toMatchObject({ ok: true, message: "harvested 1 copper_ore" });
    expect(near.events.filter((e) => e.type === "harvested").map((e) => e.data.node)).toEqual([COPPER.id]);
  });
  it("fails without the skill level, without the tool, and for unknown targets", () => {
    const h = harness();
    expect(codeOf(h.call("a", "harvest_resource", { target: "astralite_rock" }))).toBe("missing_skill");
    expect(codeOf(h.call("a", "harvest_resource", { target: "pine_tree" }))).toBe("missing_tool");
    expect(codeOf(h.call("a", "harvest_resource", { target: "gold_tree" }))).toBe("unknown_target");
  });
  it("stops when the inventory is full", () => {
    const h = new Harness(
      [{ id: "a", role: "t_full", at: COPPER }],
      [
        testRole("t_full", { mining: 40 }, [
          { item: "bronze_pickaxe", qty: 1 },
          ...Array.from({ length: 27 }, (_, i) => ({
            item: ["bronze_sword", "iron_sword", "steel_sword"][i % 3] ?? "",
            qty: 1,
          })),
        ]),
      ],
    );
    expect(codeOf(h.call("a", "harvest_resource", { target: "copper_rock" }))).toBe("inventory_full");
  });
});

describe("attack_entity and pickup_item", () => {
  it("approaches, fights, kills and loots; a dead mob is gone until it respawns", () => {
    const h = harness(BY_RAT);
    expect(codeOf(harness().call("a", "attack_entity", { target: "field_rat" }))).toBe("not_in_view");
    const r = h.call("a", "attack_entity", { target: "field_rat" });
    expect(codeOf(r)).toBe("ok");
    const killed = h.events.find((e) => e.type === "killed");
    expect(killed?.data.mob).toBe(RAT.id);
    const loot = h.events.filter((e) => e.type === "loot");
    expect(loot.length).toBeGreaterThan(0);
    for (const e of loot) expect(h.count("a", String(e.data.item))).toBeGreaterThan(0);
    expect(codeOf(h.call("b", "attack_entity", { target: String(killed?.data.mob) }))).toBe("target_gone");
    expect(codeOf(h.call("b", "attack_entity", { target: "dragon" }))).toBe("unknown_target");
  });
  it("a defeat is a failed result whose effects stand: the mob keeps its wounds, the agent respawns and sits out", () => {
    const world = new Harness([], []).world;
    const index = world.spawnsOf.get("gloom_knight")?.[0] ?? -1;
    const knight = world.pack.spawns[index];
    if (knight === undefined) throw new Error("no gloom knight");
    const h = new Harness([{ id: "w", role: "t_weak", at: knight }], [testRole("t_weak", { attack: 60 })]);
    h.tick(5);
    const r = h.call("w", "attack_entity", { target: "gloom_knight" });
    expect(codeOf(r)).toBe("defeated");
    const w = h.agent("w");
    expect(w.deaths).toBe(1);
    expect([w.x, w.y]).toEqual([h.world.pack.world.spawn.x, h.world.pack.world.spawn.y]);
    expect(w.hp).toBe(w.maxHp);
    expect(w.downUntil).toBe(5 + 1 + DEFAULT_RULES.respawnRounds);
    const fight = h.events.find((e) => e.type === "fight");
    expect(fight?.data.dealt).toBeGreaterThan(0);
    expect(h.state.mobs.get(index)?.hp).toBe(
      (world.mob.get("gloom_knight")?.hp ?? 0) - Number(fight?.data.dealt),
    );
    expect(h.events.map((e) => e.type)).toContain("agent_defeated");
    // While down, its calls are refused; once the penalty is over it acts again.
    expect(codeOf(h.call("w", "wait"))).toBe("defeated");
    h.tick(1 + DEFAULT_RULES.respawnRounds);
    expect(codeOf(h.call("w", "wait"))).toBe("ok");
  });
  it("drops left on the ground can be picked up; missing ones cannot", () => {
    const h = harness(BY_RAT);
    expect(codeOf(h.call("a", "attack_entity", { target: "field_rat", loot: false }))).toBe("ok");
    const dropped = h.events.filter((e) => e.type === "loot").map((e) => String(e.data.ground));
    expect(dropped.length).toBeGreaterThan(0);
    const g = dropped[0] ?? "";
    const item = String(h.events.find((e) => e.type === "loot")?.data.item);
    const before = h.count("b", item);
    expect(codeOf(h.call("b", "pickup_item", { target: g }))).toBe("ok");
    expect(h.count("b", item)).toBeGreaterThan(before);
    expect(codeOf(h.call("a", "pickup_item", { target: g }))).toBe("target_gone");
    expect(codeOf(h.call("a", "pickup_item", { target: "dragon_platebody" }))).toBe("unknown_target");
  });
});

describe("from the sealed dungeon", () => {
  it("everything outside is out of view or unreachable on foot, and the exit portal leads back", () => {
    const h = new Harness(
      [
        { id: "in", role: "t_all", at: { x: 975, y: 700 } },
        { id: "out", role: "t_all", at: BY_RAT },
      ],
      [
        testRole("t_all", { mining: 40, attack: 40, defence: 40 }, [
          { item: "bronze_pickaxe", qty: 1 },
          { item: "coins", qty: 50 },
          { item: "bones", qty: 5 },
        ]),
      ],
    );
    expect(h.agent("in").x).toBe(975);
    expect(codeOf(h.call("in", "harvest_resource", { target: COPPER.id }))).toBe("not_in_view");
    expect(codeOf(h.call("in", "attack_entity", { target: "field_rat" }))).toBe("not_in_view");
    expect(codeOf(h.call("in", "transfer_items", { to: "out", item: "bones", count: 1 }))).toBe(
      "unreachable",
    );
    expect(
      codeOf(h.call("in", "trade_npc", { npc: "greenvale_grocer", action: "sell", item: "bones" })),
    ).toBe("unreachable");
    expect(codeOf(h.call("out", "enter_portal", { portal: "portal_deepvault_exit" }))).toBe("not_in_view");
    expect(codeOf(h.call("out", "attack_entity", { loot: false, target: "field_rat" }))).toBe("ok");
    const g = String(h.events.find((e) => e.type === "loot")?.data.ground);
    expect(codeOf(h.call("in", "pickup_item", { target: g }))).toBe("not_in_view");
    expect(codeOf(h.call("in", "equip_item", { item: "excalibur" }))).toBe("unknown_target");
    expect(codeOf(h.call("in", "use_item", { item: "elixir" }))).toBe("unknown_target");
    expect(codeOf(h.call("in", "enter_portal", { portal: "portal_deepvault_exit" }))).toBe("ok");
    expect(h.agent("in").y).not.toBe(700);
  });
});
