import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeOf, Harness, testRole } from "../../../test/world/kit.js";
import { buildWorld, createWorld, type World } from "../build/world.js";
import { initialState } from "../engine/init.js";
import { restore, snapshot, stateDigest } from "../engine/snapshot.js";
import { step } from "../engine/step.js";
import { ROLES } from "../model/roles.js";
import { DEFAULT_RULES } from "../model/rules.js";
import type { ContentPack } from "../model/schema.js";
import type { WorldState } from "../model/types.js";

const rich = testRole("t_rich", {}, [
  { item: "coins", qty: 1000 },
  { item: "copper_ore", qty: 2 },
]);
/** These tests are about dealing, not walking: agents see and walk far in one call. */
const FAR = { viewRadius: 64, maxMoveTiles: 10_000 };

describe("skills a role lacks", () => {
  it("stop a lone agent from running a chain: no mining, smelting, smithing or wielding without them", () => {
    const cook = testRole("t_cook", { cooking: 40 }, [
      { item: "coins", qty: 100 },
      { item: "copper_ore", qty: 1 },
      { item: "tin_ore", qty: 1 },
      { item: "bronze_bar", qty: 1 },
      { item: "bronze_dagger", qty: 1 },
      { item: "raw_shrimp", qty: 1 },
    ]);
    const h = new Harness([{ id: "c", role: "t_cook" }], [cook]);
    expect(
      codeOf(h.call("c", "trade_npc", { npc: "greenvale_grocer", action: "buy", item: "bronze_pickaxe" })),
    ).toBe("ok");
    expect(codeOf(h.call("c", "harvest_resource", { target: "copper_rock" }))).toBe("missing_skill");
    expect(codeOf(h.call("c", "craft_item", { item: "bronze_bar" }))).toBe("missing_skill");
    expect(codeOf(h.call("c", "craft_item", { item: "bronze_dagger" }))).toBe("missing_skill");
    expect(codeOf(h.call("c", "equip_item", { item: "bronze_dagger" }))).toBe("missing_skill");
    expect(codeOf(h.call("c", "craft_item", { item: "cooked_shrimp" }))).toBe("ok");
  });

  it("leave fighting to the roles that have it, the warrior strongest", () => {
    const h = new Harness(
      [
        { id: "m", role: "miner" },
        { id: "w", role: "warrior" },
        { id: "s", role: "smith" },
      ],
      [],
      1,
      FAR,
    );
    expect(codeOf(h.call("m", "attack_entity", { target: "field_rat" }))).toBe("ok");
    expect(h.events.some((e) => e.type === "killed" && e.agent === "m")).toBe(true);
    expect(codeOf(h.call("s", "attack_entity", { target: "field_rat" }))).toBe("tool_not_allowed");
    const attack = (id: string): number => ROLES.find((r) => r.id === id)?.skills.attack ?? 0;
    expect(attack("warrior")).toBeGreaterThan(attack("lumberjack"));
    expect(attack("lumberjack")).toBeGreaterThan(attack("miner"));
  });
});

describe("shops", () => {
  it("sell from finite stock that selling refills, and buy only what they list", () => {
    const h = new Harness([{ id: "r", role: "t_rich" }], [rich]);
    const entry = h.world.npc.get("greenvale_smith")?.store?.find((e) => e.item === "bronze_bar");
    const stock = entry?.stock ?? 0;
    const buyArgs = { npc: "greenvale_smith", action: "buy", item: "bronze_bar" };
    expect(codeOf(h.call("r", "trade_npc", { ...buyArgs, count: stock }))).toBe("ok");
    expect(h.state.economy?.stock["greenvale_smith/bronze_bar"]).toBe(0);
    const sold = h.call("r", "trade_npc", buyArgs);
    expect(codeOf(sold)).toBe("not_in_stock");
    expect(sold.ok ? "" : sold.error.message).toMatch(/sold out/);
    const coins = h.count("r", "coins");
    expect(codeOf(h.call("r", "trade_npc", { ...buyArgs, action: "sell", count: 2 }))).toBe("ok");
    expect(h.count("r", "coins")).toBe(coins + 2 * (entry?.buy ?? 0));
    expect(h.state.economy?.stock["greenvale_smith/bronze_bar"]).toBe(2);
    expect(codeOf(h.call("r", "trade_npc", buyArgs))).toBe("ok");
    expect(codeOf(h.call("r", "trade_npc", { ...buyArgs, action: "sell", item: "bones" }))).toBe(
      "not_in_stock",
    );
    // raw goods a shop buys (ore at the smith) leave the game: coins cannot buy them back
    const ore = h.world.npc.get("greenvale_smith")?.buys?.find((b) => b.item === "copper_ore");
    const before = h.count("r", "coins");
    const oreArgs = { npc: "greenvale_smith", item: "copper_ore", count: 2 };
    expect(codeOf(h.call("r", "trade_npc", { ...oreArgs, action: "sell" }))).toBe("ok");
    expect(h.count("r", "coins")).toBe(before + 2 * (ore?.price ?? 0));
    expect(codeOf(h.call("r", "trade_npc", { ...oreArgs, action: "buy" }))).toBe("not_in_stock");
    // another shop's stock, and a fresh world, are untouched
    expect(h.state.economy?.stock["stonegate_smith/bronze_bar"]).toBeUndefined();
    expect(initialState(h.world, [], 1).economy).toBeUndefined();
  });

  it("no buy → craft → sell sequence raises money plus goods value", () => {
    const stats = { crafted: 0, sold: 0 };
    fc.assert(profitProperty(createWorld(), stats), { seed: 20261202, numRuns: 200 });
    expect(stats.crafted).toBeGreaterThan(50);
    expect(stats.sold).toBeGreaterThan(50);
  });

  it("the same search finds the loop when shops buy anything at half price (as they once did)", () => {
    const base = createWorld();
    const pack = structuredClone(base.pack) as ContentPack;
    const bowyer = pack.npcs.find((n) => n.id === "greenvale_bowyer");
    for (const r of pack.recipes) {
      const price = base.item.get(r.output.item)?.price ?? 2;
      bowyer?.store?.push({ item: r.output.item, price, stock: 0, buy: Math.max(1, Math.floor(price / 2)) });
    }
    const broken = buildWorld(pack, base.map);
    const out = fc.check(profitProperty(broken, { crafted: 0, sold: 0 }), { seed: 20261202, numRuns: 200 });
    expect(out.failed).toBe(true);
  });
});

const CRAFTER = testRole(
  "t_crafter",
  { smelting: 99, smithing: 99, crafting: 99, fletching: 99, cooking: 99, alchemy: 99 },
  [{ item: "coins", qty: 3000 }],
);

/**
 * A crafter with every crafting skill and coins only makes random calls: buy anything from any
 * shop, craft anything it holds the inputs for, buy a recipe's inputs and craft it, or sell what
 * it holds to the shop paying most. Money plus goods (at the best price a shop pays) never grows.
 */
function profitProperty(world: World, stats: { crafted: number; sold: number }) {
  const entries = world.pack.npcs.flatMap((n) => (n.store ?? []).map((e) => ({ npc: n.id, ...e })));
  const best = new Map<string, { npc: string; buy: number }>();
  const offers = [
    ...entries.flatMap((e) => (e.buy === undefined ? [] : [{ npc: e.npc, item: e.item, buy: e.buy }])),
    ...world.pack.npcs.flatMap((n) => (n.buys ?? []).map((b) => ({ npc: n.id, item: b.item, buy: b.price }))),
  ];
  for (const o of offers)
    if (o.buy > (best.get(o.item)?.buy ?? 0)) best.set(o.item, { npc: o.npc, buy: o.buy });
  const seller = new Map<string, string>();
  for (const e of entries) if (!seller.has(e.item)) seller.set(e.item, e.npc);
  const buyable = world.pack.recipes.filter((r) => r.inputs.every((i) => seller.has(i.item)));
  const action = fc.record({
    kind: fc.integer({ min: 0, max: 3 }),
    pick: fc.nat(),
    n: fc.integer({ min: 1, max: 15 }),
  });
  return fc.property(fc.array(action, { minLength: 1, maxLength: 10 }), (plan) => {
    let state = initialState(world, [{ id: "c", role: "t_crafter" }], 3, [...ROLES, CRAFTER], {
      ...DEFAULT_RULES,
      ...FAR,
    });
    const call = (tool: string, args: Record<string, unknown>): boolean => {
      const out = step(world, state, "c", { tool, args });
      state = out.state;
      return out.result.ok;
    };
    const start = value(world, state, best);
    for (const a of plan) {
      const held = holdings(state);
      if (a.kind === 0) {
        const e = entries[a.pick % entries.length];
        if (e !== undefined) call("trade_npc", { npc: e.npc, action: "buy", item: e.item, count: a.n });
      } else if (a.kind === 1 || a.kind === 2) {
        const pool =
          a.kind === 1
            ? world.pack.recipes.filter((r) => r.inputs.every((i) => (held.get(i.item) ?? 0) >= i.qty))
            : buyable;
        const r = pool[a.pick % Math.max(1, pool.length)];
        if (r === undefined) continue;
        if (a.kind === 2)
          for (const i of r.inputs)
            call("trade_npc", { npc: seller.get(i.item), action: "buy", item: i.item, count: i.qty });
        if (call("craft_item", { item: r.output.item })) stats.crafted++;
      } else {
        const goods = [...held.keys()].filter((item) => best.has(item));
        const item = goods[a.pick % Math.max(1, goods.length)];
        if (item === undefined) continue;
        const count = Math.min(held.get(item) ?? 0, 100);
        if (call("trade_npc", { npc: best.get(item)?.npc, action: "sell", item, count })) stats.sold++;
      }
    }
    return value(world, state, best) <= start;
  });
}

function holdings(state: WorldState): Map<string, number> {
  const agent = state.agents.get(0);
  const out = new Map<string, number>();
  for (const id of agent?.inventory ?? []) {
    const lot = state.lots.get(id);
    if (lot !== undefined) out.set(lot.item, (out.get(lot.item) ?? 0) + lot.qty);
  }
  return out;
}

/** Coins plus everything held at the best price any shop would pay for it. */
function value(_world: World, state: WorldState, best: ReadonlyMap<string, { buy: number }>): number {
  let v = 0;
  for (const [item, qty] of holdings(state)) v += qty * (item === "coins" ? 1 : (best.get(item)?.buy ?? 0));
  return v;
}

describe("quest givers", () => {
  it("take the asked items stage by stage, reward the team once, and record the stage", () => {
    const hero = testRole("t_hero", {}, [
      { item: "meadow_relic", qty: 4 },
      { item: "meadow_trophy", qty: 1 },
    ]);
    const helper = testRole("t_helper", {}, [{ item: "meadow_relic", qty: 2 }]);
    const h = new Harness(
      [
        { id: "a", role: "t_hero" },
        { id: "b", role: "t_helper" },
        { id: "x", role: "t_hero", team: "rivals" },
      ],
      [hero, helper],
    );
    const quest = { npc: "greenvale_elder", action: "quest" };
    const stages = h.world.npc.get("greenvale_elder")?.quest?.stages ?? [];
    expect(codeOf(h.call("a", "trade_npc", quest))).toBe("ok");
    expect(h.count("a", "meadow_relic")).toBe(2);
    expect(h.count("a", "coins")).toBe(stages[0]?.reward[0]?.qty);
    expect(h.state.economy?.quests["team/greenvale_elder"]).toBe(1);
    // the teammate is on stage 2 now: without the trophy it learns what is asked
    const ask = h.call("b", "trade_npc", quest);
    expect(codeOf(ask)).toBe("missing_items");
    expect(ask.ok ? "" : ask.error.message).toMatch(/stage 2 of 2.*asks for 1 meadow_trophy/);
    expect(codeOf(h.call("a", "trade_npc", quest))).toBe("ok");
    expect(h.count("a", "iron_longsword")).toBe(1);
    expect(codeOf(h.call("a", "trade_npc", quest))).toBe("target_gone");
    // another team starts from stage 1
    expect(codeOf(h.call("x", "trade_npc", quest))).toBe("ok");
    expect(h.state.economy?.quests["rivals/greenvale_elder"]).toBe(1);
    expect(h.events.filter((e) => e.type === "quest")).toHaveLength(3);
    expect(codeOf(h.call("a", "trade_npc", { npc: "greenvale_grocer", action: "quest" }))).toBe(
      "not_a_trader",
    );
  });
});

describe("bankers", () => {
  it("keep a bank per team, reachable at any banker, and the lots keep their history", () => {
    const h = new Harness(
      [
        { id: "a", role: "miner" },
        { id: "b", role: "warrior" },
        { id: "x", role: "warrior", team: "rivals" },
      ],
      [],
      1,
      FAR,
    );
    const bank = (agent: string, action: string, npc: string, item: string, count?: number) =>
      codeOf(h.call(agent, "trade_npc", { npc, action, item, ...(count === undefined ? {} : { count }) }));
    expect(bank("a", "deposit", "greenvale_banker", "coins", 30)).toBe("ok");
    expect(h.count("a", "coins")).toBe(20);
    expect(bank("x", "withdraw", "greenvale_banker", "coins", 1)).toBe("missing_items");
    expect(bank("b", "withdraw", "oakhaven_banker", "coins", 40)).toBe("missing_items");
    expect(bank("b", "withdraw", "oakhaven_banker", "coins", 25)).toBe("ok");
    expect(h.count("b", "coins")).toBe(75);
    const lots = h.state.economy?.banks.team ?? [];
    expect(lots.map((id) => h.state.lots.get(id)?.qty)).toEqual([5]);
    const withdrawn = h.events.filter((e) => e.type === "banked").at(-1)?.data.lots;
    const lot = h.state.lots.get(Array.isArray(withdrawn) ? Number(withdrawn[0]) : -1);
    // the withdrawn part names the deposited part, which names a's starting coins
    expect(lot?.origin.by).toBe("a");
    expect(lot?.transfers.map((t) => `${t.from}>${t.to}`)).toEqual(["bank:team>b"]);
    const deposited = h.state.lots.get(lot?.from[0]?.lot ?? -1);
    expect(deposited?.transfers.map((t) => `${t.from}>${t.to}`)).toEqual(["a>bank:team"]);
    expect(h.state.lots.get(deposited?.from[0]?.lot ?? -1)?.origin.kind).toBe("start");
    expect(bank("a", "deposit", "greenvale_smith", "coins", 1)).toBe("not_a_trader");
    const again = restore(snapshot(h.state));
    expect(stateDigest(again)).toBe(stateDigest(h.state));
    expect(again.economy).toEqual(h.state.economy);
  });
});

describe("vaults", () => {
  it("open with their key and hold treasure to pick up", () => {
    const keyed = testRole("t_keyed", {}, [{ item: "greenvale_key", qty: 1 }]);
    const h = new Harness(
      [
        { id: "k", role: "t_keyed" },
        { id: "n", role: "t_rich" },
      ],
      [keyed, rich],
      1,
      FAR,
    );
    expect(codeOf(h.call("n", "enter_portal", { portal: "door_greenvale_vault" }))).toBe("locked");
    expect(codeOf(h.call("n", "pickup_item", { target: "bronze_kiteshield" }))).toBe("unreachable");
    expect(codeOf(h.call("k", "enter_portal", { portal: "door_greenvale_vault" }))).toBe("ok");
    for (const l of h.world.pack.loot.filter((x) => x.id.startsWith("loot_greenvale")))
      expect(codeOf(h.call("k", "pickup_item", { target: l.item }))).toBe("ok");
    expect(h.count("k", "bronze_kiteshield")).toBe(1);
    expect(h.count("k", "coins")).toBe(250);
  });
});
