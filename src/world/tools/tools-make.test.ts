import { describe, expect, it } from "vitest";
import { codeOf, Harness, testRole } from "../../../test/world/kit.js";

const smith = testRole("t_smith", { smelting: 40, smithing: 40, attack: 20, defence: 20 }, [
  { item: "copper_ore", qty: 3 },
  { item: "tin_ore", qty: 3 },
  { item: "cooked_trout", qty: 2 },
  { item: "coins", qty: 100 },
]);
const novice = testRole("t_novice", {}, [
  { item: "copper_ore", qty: 1 },
  { item: "tin_ore", qty: 1 },
  { item: "rune_platebody", qty: 1 },
  { item: "bones", qty: 20 },
]);

function harness(): Harness {
  return new Harness(
    [
      { id: "s", role: "t_smith" },
      { id: "n", role: "t_novice" },
      { id: "x", role: "t_novice", team: "rivals" },
    ],
    [smith, novice],
  );
}

describe("craft_item", () => {
  it("walks to the station, consumes inputs and produces the output", () => {
    const h = harness();
    const r = h.call("s", "craft_item", { item: "bronze_bar", count: 2, skill: "smelting" });
    expect(codeOf(r)).toBe("ok");
    expect(h.count("s", "bronze_bar")).toBe(2);
    expect(h.count("s", "copper_ore")).toBe(1);
    const furnace = h.world.stationsOf
      .get("furnace")
      ?.find((f) => f.x === h.agent("s").x && f.y === h.agent("s").y);
    expect(furnace).toBeDefined();
  });
  it("reports unknown recipes, wrong skills, missing skill levels and missing items", () => {
    const h = harness();
    expect(codeOf(h.call("s", "craft_item", { item: "copper_ore" }))).toBe("unknown_recipe");
    expect(codeOf(h.call("s", "craft_item", { item: "bronze_bar", skill: "cooking" }))).toBe(
      "unknown_recipe",
    );
    expect(codeOf(h.call("n", "craft_item", { item: "iron_bar" }))).toBe("missing_skill");
    expect(codeOf(h.call("s", "craft_item", { item: "bronze_bar", count: 5 }))).toBe("missing_items");
    expect(h.count("s", "copper_ore")).toBe(3); // a failed call changes nothing
  });
  it("needs a reachable station", () => {
    const h = harness();
    expect(codeOf(h.call("s", "enter_portal", { portal: "portal_greenvale_saltmere" }))).toBe("ok");
    h.state = { ...h.state, agents: h.state.agents.set(0, { ...h.agent("s"), x: 975, y: 700 }) }; // inside the sealed dungeon
    expect(codeOf(h.call("s", "craft_item", { item: "bronze_bar" }))).toBe("no_station");
  });
});

describe("equip_item and use_item", () => {
  it("equips gear (swapping the old piece back) and refuses what cannot be worn or is too high", () => {
    const h = harness();
    h.call("s", "craft_item", { item: "bronze_bar", count: 3 });
    h.call("s", "craft_item", { item: "bronze_dagger" });
    h.call("s", "craft_item", { item: "bronze_sword" });
    expect(codeOf(h.call("s", "equip_item", { item: "bronze_dagger" }))).toBe("ok");
    expect(codeOf(h.call("s", "equip_item", { item: "bronze_sword" }))).toBe("ok");
    const weapon = h.state.lots.get(h.agent("s").equipment.weapon ?? -1);
    expect(weapon?.item).toBe("bronze_sword");
    expect(h.count("s", "bronze_dagger")).toBe(1);
    expect(codeOf(h.call("s", "equip_item", { item: "coins" }))).toBe("not_equippable");
    expect(codeOf(h.call("n", "equip_item", { item: "rune_platebody" }))).toBe("missing_skill");
    expect(codeOf(h.call("n", "equip_item", { item: "iron_sword" }))).toBe("missing_skill");
    expect(codeOf(h.call("n", "equip_item", { item: "bronze_dagger" }))).toBe("missing_skill"); // no attack at all
    expect(codeOf(h.call("s", "equip_item", { item: "bronze_helmet" }))).toBe("missing_items");
  });
  it("eats food to heal, and refuses non-food or missing food", () => {
    const h = harness();
    h.state = { ...h.state, agents: h.state.agents.set(0, { ...h.agent("s"), hp: 5 }) };
    expect(codeOf(h.call("s", "use_item", { item: "cooked_trout" }))).toBe("ok");
    expect(h.agent("s").hp).toBe(5 + (h.world.item.get("cooked_trout")?.heal ?? 0));
    expect(h.count("s", "cooked_trout")).toBe(1);
    expect(codeOf(h.call("s", "use_item", { item: "copper_ore" }))).toBe("not_usable");
    expect(codeOf(h.call("n", "use_item", { item: "cooked_trout" }))).toBe("missing_items");
  });
});

describe("transfer_items", () => {
  it("walks to a teammate and hands items over, keeping the history on the lots", () => {
    const h = harness();
    expect(codeOf(h.call("n", "transfer_items", { to: "s", item: "copper_ore", count: 1 }))).toBe("ok");
    expect(h.count("s", "copper_ore")).toBe(4);
    expect(h.count("n", "copper_ore")).toBe(0);
    const ev = h.events.find((e) => e.type === "transferred");
    const lots = ev?.data.lots;
    const lot = h.state.lots.get(Array.isArray(lots) ? Number(lots[0]) : -1);
    expect(lot?.transfers.at(-1)).toMatchObject({ from: "n", to: "s", qty: 1 });
  });
  it("refuses strangers, unknown agents, missing items and full inventories", () => {
    const h = harness();
    expect(codeOf(h.call("n", "transfer_items", { to: "x", item: "bones" }))).toBe("not_teammate");
    expect(codeOf(h.call("n", "transfer_items", { to: "n", item: "bones" }))).toBe("not_teammate");
    expect(codeOf(h.call("n", "transfer_items", { to: "ghost", item: "bones" }))).toBe("unknown_target");
    expect(codeOf(h.call("n", "transfer_items", { to: "s", item: "bones", count: 99 }))).toBe(
      "missing_items",
    );
    const full = testRole(
      "t_full2",
      {},
      Array.from({ length: 28 }, () => ({ item: "bronze_sword", qty: 1 })),
    );
    const h2 = new Harness(
      [
        { id: "a", role: "t_full2" },
        { id: "b", role: "t_full2" },
      ],
      [full],
    );
    expect(codeOf(h2.call("a", "transfer_items", { to: "b", item: "bronze_sword", count: 1 }))).toBe(
      "inventory_full",
    );
  });
});

describe("trade_npc", () => {
  it("buys, sells and exchanges", () => {
    const h = harness();
    expect(
      codeOf(h.call("s", "trade_npc", { npc: "greenvale_grocer", action: "buy", item: "vial", count: 2 })),
    ).toBe("ok");
    expect(h.count("s", "vial")).toBe(2);
    expect(h.count("s", "coins")).toBe(100 - 2 * (h.world.item.get("vial")?.price ?? 0));
    const vial = h.world.npc.get("greenvale_grocer")?.store?.find((e) => e.item === "vial");
    expect(
      codeOf(h.call("s", "trade_npc", { npc: "greenvale_grocer", action: "sell", item: "vial", count: 1 })),
    ).toBe("ok");
    expect(h.count("s", "coins")).toBe(100 - 2 * (vial?.price ?? 0) + (vial?.buy ?? 0));
    expect(vial?.buy).toBeLessThan(vial?.price ?? 0);
    expect(
      codeOf(
        h.call("n", "trade_npc", { npc: "greenvale_trader", action: "exchange", item: "coins", count: 1 }),
      ),
    ).toBe("ok");
    expect(h.count("n", "bones")).toBe(10);
    expect(h.count("n", "coins")).toBe(40);
  });
  it("reports wrong NPCs, stock, coins and items", () => {
    const h = harness();
    expect(codeOf(h.call("n", "trade_npc", { npc: "greenvale_banker", action: "buy", item: "vial" }))).toBe(
      "not_a_trader",
    );
    expect(codeOf(h.call("n", "trade_npc", { npc: "greenvale_trader", action: "buy", item: "vial" }))).toBe(
      "not_a_trader",
    );
    expect(
      codeOf(h.call("n", "trade_npc", { npc: "greenvale_grocer", action: "buy", item: "rune_sword" })),
    ).toBe("not_in_stock");
    expect(codeOf(h.call("n", "trade_npc", { npc: "greenvale_grocer", action: "buy", item: "vial" }))).toBe(
      "insufficient_coins",
    );
    expect(
      codeOf(h.call("n", "trade_npc", { npc: "greenvale_grocer", action: "sell", item: "feather" })),
    ).toBe("missing_items");
    expect(codeOf(h.call("n", "trade_npc", { npc: "nobody", action: "sell", item: "bones" }))).toBe(
      "unknown_target",
    );
  });
});

describe("chat, wait, complete and the call envelope", () => {
  it("delivers messages only to the team (or one teammate), once", () => {
    const h = harness();
    expect(codeOf(h.call("s", "chat", { message: "hello team" }))).toBe("ok");
    expect(codeOf(h.call("n", "chat", { message: "psst", to: "s" }))).toBe("ok");
    expect(codeOf(h.call("x", "chat", { message: "hi", to: "s" }))).toBe("not_teammate");
    expect(codeOf(h.call("x", "chat", { message: "hi", to: "ghost" }))).toBe("unknown_target");
    expect(codeOf(h.call("s", "wait"))).toBe("ok");
  });
  it("rejects unknown tools, bad arguments, disallowed tools and calls after completion", () => {
    const h = harness();
    expect(codeOf(h.call("s", "fly", {}))).toBe("invalid_args");
    expect(codeOf(h.call("s", "wait", { extra: 1 }))).toBe("invalid_args");
    const limited = new Harness([{ id: "m", role: "merchant" }], []);
    expect(codeOf(limited.call("m", "attack_entity", { target: "field_rat" }))).toBe("tool_not_allowed");
    expect(codeOf(h.call("s", "complete", { summary: "done" }))).toBe("ok");
    expect(h.agent("s").completed?.summary).toBe("done");
    // Completion is per agent: the caller is offline, its teammates play on.
    expect(codeOf(h.call("s", "wait"))).toBe("task_complete");
    expect(codeOf(h.call("n", "wait"))).toBe("ok");
    const actions = h.events.filter((e) => e.type === "action");
    expect(actions.every((e) => typeof e.data.ok === "boolean")).toBe(true);
  });
});
