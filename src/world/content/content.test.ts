import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { digestOf, InputError } from "../../core/index.js";
import { contentCounts, recipeDepths } from "../build/stats.js";
import { createWorld } from "../build/world.js";
import { ROLES } from "../model/roles.js";
import type { ContentPack } from "../model/schema.js";
import { generateContent } from "./generate-content.js";
import { loadPackDir, writePackDir } from "./load.js";
import { validatePack, validatePlacements } from "./validate.js";

const world = createWorld();

describe("generated content", () => {
  it("reaches the paper's scale", () => {
    const c = contentCounts(world);
    expect([c.map.width, c.map.height]).toEqual([1056, 768]);
    expect(c.biomes).toBe(9);
    expect(c.items).toBeGreaterThanOrEqual(380);
    expect(c.mobKinds).toBeGreaterThanOrEqual(144);
    expect(c.bosses).toBeGreaterThan(0);
    expect(c.npcs).toBeGreaterThanOrEqual(70);
    expect(c.harvestPoints).toBeGreaterThanOrEqual(1531);
    expect(c.maxRecipeDepth).toBeGreaterThanOrEqual(3);
    expect(c.doors).toBeGreaterThan(0);
    expect(c.portals).toBeGreaterThan(0);
  });

  it("has every biome populated with harvest points and mobs", () => {
    for (let b = 0; b < world.pack.biomes.length; b++) {
      const at = (p: { x: number; y: number }): number => world.map.biome[p.y * world.map.width + p.x] ?? -1;
      expect(world.pack.nodes.filter((n) => at(n) === b).length).toBeGreaterThan(100);
      expect(world.pack.spawns.filter((s) => at(s) === b).length).toBeGreaterThan(20);
    }
  });

  it("has deep chains whose steps need skills no single built-in role has", () => {
    const depths = recipeDepths(world);
    const arrows = world.recipeFor.get("bronze_arrow");
    expect(depths.get("bronze_arrow")).toBe(3);
    // Every skill on the chain ore → bar → arrowheads → arrows (+ shafts, + mining the ore).
    const needed = new Set(["mining", "smelting", "smithing", "fletching", "woodcutting"]);
    expect(arrows?.skill).toBe("fletching");
    for (const role of ROLES) {
      const has = [...needed].filter((s) => (role.skills[s as keyof typeof role.skills] ?? 0) > 0);
      expect(has.length).toBeLessThan(needed.size);
    }
  });

  it("is the same for the same seed and different for another", () => {
    const a = generateContent(5);
    const b = generateContent(5);
    expect(Buffer.from(a.map.terrain).equals(Buffer.from(b.map.terrain))).toBe(true);
    expect(digestOf(a.pack)).toBe(digestOf(b.pack));
    const c = generateContent(6);
    expect(Buffer.from(a.map.terrain).equals(Buffer.from(c.map.terrain))).toBe(false);
  });
});

describe("content validation", () => {
  const clone = (): ContentPack => structuredClone(world.pack);
  const reject = (pack: unknown, pattern: RegExp): void => {
    let caught: unknown;
    try {
      validatePack(pack as Partial<ContentPack>);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect((caught as Error).message).toMatch(pattern);
  };

  it("accepts the generated pack and round-trips it through files", () => {
    const dir = mkdtempSync(join(tmpdir(), "world-pack-"));
    writePackDir(world.pack, dir);
    const loaded = loadPackDir(dir);
    expect(JSON.stringify(loaded)).toBe(JSON.stringify(world.pack));
  });

  it("names the file, entry and field of a schema error", () => {
    const pack = clone() as unknown as { items: Array<Record<string, unknown>> };
    const item = pack.items[7] ?? {};
    item.stats = { attack: "sharp", defence: 0 };
    reject(pack, /^items\.json: entry 7 \("[a-z_]+"\): stats\.attack: /);
  });

  it("rejects dangling references, duplicates and missing files", () => {
    const a = clone();
    const r = a.recipes[3];
    if (r !== undefined) r.inputs = [{ item: "unobtainium", qty: 1 }];
    reject(a, /recipes\.json: entry 3 .*inputs\.0\.item: unknown item "unobtainium"/);
    const b = clone();
    const dup = b.items[1];
    if (dup !== undefined) b.items.push({ ...dup });
    reject(b, /items\.json: entry \d+ .*duplicate id/);
    const c = clone();
    const spawn = c.spawns[0];
    if (spawn !== undefined) spawn.mob = "ghost";
    reject(c, /spawns\.json: entry 0 \("mob_0"\): mob: unknown mob "ghost"/);
    const d = clone() as Partial<ContentPack>;
    delete d.npcs;
    reject(d, /npcs\.json: file is missing/);
    const e = clone();
    const weapon = e.items.find((i) => i.type === "weapon");
    if (weapon !== undefined) delete weapon.slot;
    reject(e, /items\.json: entry \d+ .*slot: a weapon needs a slot/);
  });

  it("rejects things placed on tiles nobody can stand on", () => {
    const pack = clone();
    const node = pack.nodes[2];
    if (node !== undefined) {
      node.x = 0;
      node.y = 0;
    }
    expect(() => validatePlacements(pack, world.map)).toThrow(
      /nodes\.json: entry 2 \("node_2"\): x,y: \(0, 0\) is not a walkable tile/,
    );
  });

  it("reports unreadable JSON with the file name", () => {
    const dir = mkdtempSync(join(tmpdir(), "world-pack-"));
    writePackDir(world.pack, dir);
    writeFileSync(join(dir, "mobs.json"), readFileSync(join(dir, "mobs.json"), "utf8").slice(0, 100));
    expect(() => loadPackDir(dir)).toThrow(/mobs\.json: not valid JSON/);
  });
});
