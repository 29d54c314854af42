import { describe, expect, it } from "vitest";
import { Harness, testRole } from "../../../test/world/kit.js";
import { roleDocument } from "../build/role-doc.js";
import { roleById } from "../model/roles.js";
import { toolJsonSchemas } from "../model/tool-args.js";
import { observe, VIEW_RADIUS } from "./observe.js";

const plain = testRole("t_plain", { mining: 10 }, [{ item: "bronze_pickaxe", qty: 1 }]);

describe("observations", () => {
  it("show the agent itself, its surroundings and nothing of far-away agents", () => {
    const h = new Harness(
      [
        { id: "a", role: "t_plain" },
        { id: "b", role: "t_plain" },
        { id: "far", role: "t_plain", at: { x: 180, y: 390 } },
      ],
      [plain],
    );
    const o = observe(h.world, h.state, "a");
    expect(o.position).toMatchObject({ x: h.agent("a").x, y: h.agent("a").y, biome: "meadow" });
    expect(o.terrain).toHaveLength(2 * VIEW_RADIUS + 1);
    expect(o.terrain[VIEW_RADIUS]?.[VIEW_RADIUS]).toBe("@");
    expect(o.inventory).toEqual([{ item: "bronze_pickaxe", qty: 1 }]);
    expect(o.nearby.some((t) => t.kind === "agent" && t.id === "b")).toBe(true);
    expect(o.nearby.some((t) => t.id === "far")).toBe(false);
    expect(o.nearby.some((t) => t.kind === "npc")).toBe(true);
    expect(o.nearby.every((t) => t.distance <= VIEW_RADIUS)).toBe(true);
    // At the map's corner the view is padded with blanks outside the map.
    h.state = { ...h.state, agents: h.state.agents.set(0, { ...h.agent("a"), x: 1, y: 1 }) };
    const corner = observe(h.world, h.state, "a").terrain;
    expect(corner.every((row) => row.length === 2 * VIEW_RADIUS + 1)).toBe(true);
    expect(corner[0]).toBe(" ".repeat(2 * VIEW_RADIUS + 1));
    // Row y = 1 is in the map's rock border: 7 blanks (x < 0), rock at x = 0, the agent, rock.
    expect(corner[VIEW_RADIUS]).toBe(`${" ".repeat(VIEW_RADIUS - 1)}#@${"#".repeat(VIEW_RADIUS)}`);
  });

  it("carry messages addressed to the agent once, and the result of its last call", () => {
    const h = new Harness(
      [
        { id: "a", role: "t_plain" },
        { id: "b", role: "t_plain" },
        { id: "c", role: "t_plain" },
      ],
      [plain],
    );
    h.call("a", "chat", { message: "to all" });
    h.call("a", "chat", { message: "to b only", to: "b" });
    expect(observe(h.world, h.state, "b").messages.map((m) => m.text)).toEqual(["to all", "to b only"]);
    expect(observe(h.world, h.state, "c").messages.map((m) => m.text)).toEqual(["to all"]);
    expect(observe(h.world, h.state, "a").messages).toEqual([]);
    h.call("b", "wait");
    expect(observe(h.world, h.state, "b").messages).toEqual([]);
    expect(observe(h.world, h.state, "b").lastResult).toMatchObject({ ok: true, tool: "wait" });
  });
});

describe("roles and tool schemas", () => {
  it("give each role its own document", () => {
    const h = new Harness([{ id: "a", role: "miner" }], []);
    const miner = roleDocument(h.world, roleById("miner") ?? plain);
    const smith = roleDocument(h.world, roleById("smith") ?? plain);
    const warrior = roleDocument(h.world, roleById("warrior") ?? plain);
    expect(miner).toMatch(/Copper rock → 1 copper_ore .*node_\d+ \(\d+, \d+\)/);
    expect(miner).not.toMatch(/bronze_bar ←/);
    expect(smith).toMatch(/1 bronze_bar ← 1 copper_ore \+ 1 tin_ore \(smelting 1, at a furnace\)/);
    expect(warrior).toMatch(/field_rat: Field rat, level \d+, hp \d+/);
    expect(smith).not.toMatch(/## Monsters/);
  });

  it("export a JSON Schema for every allowed tool", () => {
    const all = toolJsonSchemas();
    expect(all.map((t) => t.name)).toHaveLength(13);
    const move = all.find((t) => t.name === "move_to");
    expect(move?.parameters).toMatchObject({
      type: "object",
      properties: { x: { type: "integer" } },
      required: ["x", "y"],
    });
    const merchant = toolJsonSchemas(roleById("merchant")?.tools);
    expect(merchant.some((t) => t.name === "attack_entity")).toBe(false);
  });
});
