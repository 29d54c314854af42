import { describe, expect, it } from "vitest";
import { codeOf, Harness, testRole } from "../../../test/world/kit.js";

const gatherer = testRole("t_gatherer", { mining: 40, woodcutting: 1, attack: 40, defence: 40 }, [
  { item: "bronze_pickaxe", qty: 1 },
]);

function harness(): Harness {
  return new Harness(
    [
      { id: "a", role: "t_gatherer" },
      { id: "b", role: "t_gatherer" },
    ],
    [gatherer],
  );
}

describe("move_to", () => {
  it("walks to a reachable tile and records the path", () => {
    const h = harness();
    const r = h.call("a", "move_to", { x: 560, y: 400 });
    expect(codeOf(r)).toBe("ok");
    expect([h.agent("a").x, h.agent("a").y]).toEqual([560, 400]);
    const moved = h.events.find((e) => e.type === "moved");
    expect(moved?.data.steps).toBeGreaterThanOrEqual(Math.abs(560 - 525) + Math.abs(400 - 381));
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
  it("takes the agent through a portal, and refuses locked ones without the key", () => {
    const h = harness();
    const r = h.call("a", "enter_portal", { portal: "portal_greenvale_frosthold" });
    expect(codeOf(r)).toBe("ok");
    const p = h.world.portal.get("portal_greenvale_frosthold");
    expect([h.agent("a").x, h.agent("a").y]).toEqual([p?.toX, p?.toY]);
    expect(codeOf(h.call("b", "enter_portal", { portal: "door_greenvale_vault" }))).toBe("locked");
    expect(codeOf(h.call("b", "enter_portal", { portal: "nowhere" }))).toBe("unknown_target");
  });
});

describe("harvest_resource", () => {
  it("harvests the nearest point of a kind, depletes it, and respawns it later", () => {
    const h = harness();
    const r = h.call("a", "harvest_resource", { target: "copper_rock", count: 3 });
    expect(codeOf(r)).toBe("ok");
    expect(h.count("a", "copper_ore")).toBe(3);
    const nodes = h.events.filter((e) => e.type === "harvested").map((e) => String(e.data.node));
    expect(new Set(nodes).size).toBe(3);
    const first = nodes[0] ?? "";
    expect(codeOf(h.call("a", "harvest_resource", { target: first }))).toBe("target_gone");
    h.tick(50);
    expect(codeOf(h.call("a", "harvest_resource", { target: first }))).toBe("ok");
  });
  it("fails without the skill level, without the tool, and for unknown targets", () => {
    const h = harness();
    expect(codeOf(h.call("a", "harvest_resource", { target: "astralite_rock" }))).toBe("missing_skill");
    expect(codeOf(h.call("a", "harvest_resource", { target: "pine_tree" }))).toBe("missing_tool");
    expect(codeOf(h.call("a", "harvest_resource", { target: "gold_tree" }))).toBe("unknown_target");
  });
  it("stops when the inventory is full", () => {
    const h = new Harness(
      [{ id: "a", role: "t_full" }],
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
    const h = harness();
    const r = h.call("a", "attack_entity", { target: "field_rat" });
    expect(codeOf(r)).toBe("ok");
    const killed = h.events.find((e) => e.type === "killed");
    expect(killed).toBeDefined();
    const loot = h.events.filter((e) => e.type === "loot");
    expect(loot.length).toBeGreaterThan(0);
    for (const e of loot) expect(h.count("a", String(e.data.item))).toBeGreaterThan(0);
    expect(codeOf(h.call("b", "attack_entity", { target: String(killed?.data.mob) }))).toBe("target_gone");
    expect(codeOf(h.call("b", "attack_entity", { target: "dragon" }))).toBe("unknown_target");
  });
  it("a weak agent is defeated and wakes up in town", () => {
    const h = new Harness([{ id: "w", role: "t_weak" }], [testRole("t_weak", {})]);
    const r = h.call("w", "attack_entity", { target: "gloom_knight" });
    expect(codeOf(r)).toBe("defeated");
    expect(h.agent("w").deaths).toBe(1);
    expect(h.agent("w").x).toBe(h.world.pack.world.spawn.x);
  });
  it("drops left on the ground can be picked up; missing ones cannot", () => {
    const h = harness();
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
  it("everything outside is unreachable on foot, and the exit portal leads back", () => {
    const h = new Harness(
      [
        { id: "in", role: "t_all", at: { x: 975, y: 700 } },
        { id: "out", role: "t_all" },
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
    const node = h.world.nodesOf.get("copper_rock")?.[0] ?? -1;
    expect(codeOf(h.call("in", "harvest_resource", { target: h.world.pack.nodes[node]?.id ?? "" }))).toBe(
      "unreachable",
    );
    expect(codeOf(h.call("in", "attack_entity", { target: "field_rat" }))).toBe("unreachable");
    expect(codeOf(h.call("in", "transfer_items", { to: "out", item: "bones", count: 1 }))).toBe(
      "unreachable",
    );
    expect(
      codeOf(h.call("in", "trade_npc", { npc: "greenvale_grocer", action: "sell", item: "bones" })),
    ).toBe("unreachable");
    expect(codeOf(h.call("out", "enter_portal", { portal: "portal_deepvault_exit" }))).toBe("unreachable");
    expect(codeOf(h.call("out", "attack_entity", { loot: false, target: "field_rat" }))).toBe("ok");
    const g = String(h.events.find((e) => e.type === "loot")?.data.ground);
    expect(codeOf(h.call("in", "pickup_item", { target: g }))).toBe("unreachable");
    expect(codeOf(h.call("in", "equip_item", { item: "excalibur" }))).toBe("unknown_target");
    expect(codeOf(h.call("in", "use_item", { item: "elixir" }))).toBe("unknown_target");
    expect(codeOf(h.call("in", "enter_portal", { portal: "portal_deepvault_exit" }))).toBe("ok");
    expect(h.agent("in").y).not.toBe(700);
  });
});
