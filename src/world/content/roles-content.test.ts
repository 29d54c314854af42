import { describe, expect, it } from "vitest";
import { InputError } from "../../core/index.js";
import { roleDocument } from "../build/role-doc.js";
import { createWorld } from "../build/world.js";
import { ROLES, type RoleDef } from "../model/roles.js";
import type { ContentPack } from "../model/schema.js";
import { maxBuyBack, purchaseCosts } from "./prices.js";
import { soloChains } from "./solo-chains.js";
import { validatePack } from "./validate.js";

const world = createWorld();
const { pack } = world;

describe("built-in roles", () => {
  it("cannot finish any chain of two or more skills alone", () => {
    for (const role of ROLES)
      expect({ role: role.id, chains: soloChains(pack, role) }).toEqual({ role: role.id, chains: [] });
  });

  it("the search does find solo chains when one role holds two linked skills", () => {
    const miner = ROLES.find((r) => r.id === "miner") as RoleDef;
    const both: RoleDef = {
      ...miner,
      skills: { mining: 40, smelting: 40 },
      tools: [...miner.tools, "craft_item"],
    };
    expect(soloChains(pack, both)).toContainEqual({ item: "bronze_bar", uses: ["mining", "smelting"] });
    const fisherCook: RoleDef = { ...both, skills: { fishing: 40, cooking: 40 } };
    expect(soloChains(pack, fisherCook).map((c) => c.item)).toContain("cooked_shrimp");
    // Fighting counts: hides from beasts, tanned by the same role.
    const hunter: RoleDef = { ...both, skills: { attack: 20, crafting: 20 }, tools: [...both.tools] };
    expect(soloChains(pack, hunter).map((c) => c.item)).toContain("cow_leather");
  });

  it("let more than one role fight, with different strength", () => {
    const fighters = ROLES.filter((r) => r.tools.includes("attack_entity") && (r.skills.attack ?? 0) > 0);
    expect(fighters.length).toBeGreaterThanOrEqual(2);
    const strength = new Set(fighters.map((r) => `${r.skills.attack}/${r.skills.defence}`));
    expect(strength.size).toBe(fighters.length);
  });
});

describe("keys, doors and vaults", () => {
  it("every key opens a door or portal, and every key can be obtained", () => {
    const keys = pack.items.filter((i) => i.type === "key").map((i) => i.id);
    expect(keys.length).toBeGreaterThan(0);
    const locks = new Set(pack.portals.map((p) => p.requiresItem));
    const given = new Set(pack.npcs.flatMap((n) => (n.trades ?? []).map((t) => t.get.item)));
    for (const key of keys) {
      expect({ key, opens: locks.has(key) }).toEqual({ key, opens: true });
      expect({ key, obtainable: given.has(key) }).toEqual({ key, obtainable: true });
    }
  });

  it("every locked door leads to a vault holding treasure only reachable through it", () => {
    const comp = (x: number, y: number): number => world.map.comp[y * world.map.width + x] ?? -1;
    const doors = pack.portals.filter((p) => p.kind === "door" && p.requiresItem !== undefined);
    expect(doors.length).toBe(3);
    for (const door of doors) {
      const inside = comp(door.toX, door.toY);
      expect(inside).not.toBe(comp(door.x, door.y));
      const loot = pack.loot.filter((l) => comp(l.x, l.y) === inside);
      expect({ door: door.id, piles: loot.length > 0 }).toEqual({ door: door.id, piles: true });
    }
    // and nothing else sits in a vault: loot lies only behind locked doors
    const vaults = new Set(doors.map((d) => comp(d.toX, d.toY)));
    for (const l of pack.loot) expect(vaults.has(comp(l.x, l.y))).toBe(true);
  });
});

describe("shop prices", () => {
  it("never pay more for an item than it costs to buy or make from bought inputs", () => {
    const costs = purchaseCosts(pack);
    let buying = 0;
    for (const n of pack.npcs)
      for (const e of n.store ?? []) {
        expect(e.stock).toBeGreaterThan(0);
        if (e.buy === undefined) continue;
        buying++;
        expect(e.buy).toBeLessThanOrEqual(maxBuyBack(costs, e.item, e.price));
      }
    expect(buying).toBeGreaterThan(20);
    // raw goods: shops buy them (at most half price) but never sell them, so coins cannot buy them
    let raw = 0;
    for (const n of pack.npcs)
      for (const b of n.buys ?? []) {
        raw++;
        expect(costs.has(b.item)).toBe(false);
        expect(b.price).toBeLessThanOrEqual((world.item.get(b.item)?.price ?? 0) / 2);
      }
    expect(raw).toBeGreaterThan(20);
    // e.g. arrowheads: 15 from one bar, so the smith's bar price caps what they fetch
    expect(costs.get("bronze_arrowheads")).toBeLessThan(
      (world.item.get("bronze_arrowheads")?.price ?? 0) / 2,
    );
  });

  it("a pack whose shop would buy an item for more than its inputs cost is rejected", () => {
    const bad = structuredClone(pack) as ContentPack;
    const smith = bad.npcs.find((n) => n.id === "greenvale_smith");
    smith?.store?.push({ item: "bronze_arrowheads", price: 20, stock: 0, buy: 10 });
    expect(() => validatePack(bad)).toThrow(InputError);
    expect(() => validatePack(bad)).toThrow(/store\.\d+\.buy: pays 10 for bronze_arrowheads, more than 0/);
    const quest = structuredClone(pack) as ContentPack;
    const elder = quest.npcs.find((n) => n.quest !== undefined);
    const stage = elder?.quest?.stages[0];
    if (stage !== undefined) stage.ask = [{ item: "bronze_bar", qty: 1 }];
    expect(() => validatePack(quest)).toThrow(/quest\.stages\.0\.ask\.0\.item: bronze_bar can be bought/);
  });

  it("quest givers and bankers all have something to do", () => {
    const givers = pack.npcs.filter((n) => n.role === "quest_giver");
    expect(givers).toHaveLength(18);
    for (const g of givers) expect(g.quest?.stages.length ?? 0).toBeGreaterThan(0);
    expect(pack.npcs.filter((n) => n.role === "banker")).toHaveLength(9);
  });
});

describe("role documents", () => {
  it("leave out no recipe, resource or monster relevant to the role", () => {
    for (const role of ROLES) {
      const doc = roleDocument(world, role);
      const crafts = role.tools.includes("craft_item");
      for (const r of pack.recipes) {
        const relevant = crafts && (role.skills[r.skill] ?? 0) > 0;
        expect({
          role: role.id,
          recipe: r.id,
          listed: doc.includes(`${r.output.qty} ${r.output.item} ←`),
        }).toEqual({ role: role.id, recipe: r.id, listed: relevant });
      }
      for (const r of pack.resources) {
        const relevant = role.tools.includes("harvest_resource") && (role.skills[r.skill] ?? 0) > 0;
        expect({ role: role.id, resource: r.id, listed: doc.includes(`- ${r.name} →`) }).toEqual({
          role: role.id,
          resource: r.id,
          listed: relevant,
        });
      }
      for (const m of pack.mobs)
        expect({ role: role.id, mob: m.id, listed: doc.includes(`- ${m.id}: `) }).toEqual({
          role: role.id,
          mob: m.id,
          listed: role.knows.monsters,
        });
    }
  });

  it("tell the merchant every shop, quest and banker", () => {
    const doc = roleDocument(world, ROLES.find((r) => r.id === "merchant") as RoleDef);
    for (const n of pack.npcs) expect(doc).toContain(`- ${n.id}: `);
    expect(doc).toMatch(/sells bronze_bar for \d+ \(stock \d+\); buys it for \d+/);
    expect(doc).toMatch(/stage 2: bring 1 meadow_trophy; reward/);
  });
});
