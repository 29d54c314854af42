import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { UserError } from "../../core/index.js";
import { createWorld } from "../build/world.js";
import { loadWorldTask, loadWorldTasks, parseWorldTask } from "./load.js";
import { registerWorldPredicate } from "./predicates.js";
import { SCHEMA_FILE, worldTaskSchemaText } from "./write-schema.js";

const world = createWorld();
const base = readFileSync("world-tasks/bronze-arrows.yaml", "utf8");

/** The example task with one change made to its parsed YAML, as text again. */
function variant(
  change: (t: Record<string, unknown> & { team: Array<Record<string, unknown>> }) => void,
): string {
  const t = parse(base) as Record<string, unknown> & { team: Array<Record<string, unknown>> };
  change(t);
  return stringify(t);
}

function errorOf(text: string): string {
  try {
    parseWorldTask(text, "t.yaml", world);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error("expected the task to be rejected");
}

describe("world task files", () => {
  it("publishes the JSON Schema generated from the zod schema (regenerate: npx tsx src/world/task/write-schema.ts)", () => {
    expect(readFileSync(SCHEMA_FILE, "utf8")).toBe(worldTaskSchemaText());
  });

  it("loads the example with defaults filled in", () => {
    const spec = loadWorldTask("world-tasks/bronze-arrows.yaml", world);
    expect(spec.team.map((m) => m.role)).toEqual(["lumberjack", "miner", "smith", "fletcher"]);
    expect(spec.team[0]?.role_document).toBe("default");
    expect(spec.checkpoints.find((c) => c.id === "arrows_made")?.weight).toBe(3);
    expect(spec.checkpoints.find((c) => c.id === "bar_smelted")?.weight).toBe(1);
    expect(spec.world).toEqual({ mobs: [], depleted_nodes: [] });
    expect(spec.params.view_radius).toBe(8);
  });

  it("names the file, the YAML path and the line of a schema error", () => {
    const text = base.replace("{ item: feather, qty: 15 }", "{ item: feather, qty: 0 }");
    const line = text.split("\n").findIndex((l) => l.includes("qty: 0")) + 1;
    expect(errorOf(text)).toBe(
      `t.yaml: team[3].inventory[0].qty (line ${line}): Too small: expected number to be >=1`,
    );
  });

  it("reports a predicate through the branch its key chose", () => {
    const text = base.replace(
      "crafted: { item: bronze_arrow, qty: 15, agent: fletcher }",
      "crafted: { item: bronze_arrow, qty: many }",
    );
    expect(errorOf(text)).toMatch(
      /^t\.yaml: success\.all\[1\]\.crafted\.qty \(line \d+\): .*expected number/,
    );
    const unknown = base.replace(
      "crafted: { item: bronze_arrow, qty: 15, agent: fletcher }",
      "forged: { item: bronze_arrow }",
    );
    expect(errorOf(unknown)).toMatch(/success\.all\[1\] \(line \d+\): expected one predicate: holds/);
  });

  it("rejects unknown items, roles, mobs, NPCs, agents and custom predicates, naming the path", () => {
    const cases: Array<[string, RegExp]> = [
      [
        variant((t) => {
          (t.team[3] as { inventory: unknown }).inventory = [{ item: "unobtainium", qty: 1 }];
        }),
        /team\[3\]\.inventory\[0\]\.item \(line \d+\): unknown item "unobtainium"/,
      ],
      [
        variant((t) => {
          (t.team[1] as { role: string }).role = "wizard";
        }),
        /team\[1\]\.role \(line \d+\): unknown role "wizard"/,
      ],
      [
        variant((t) => {
          (t.team[0] as { equipment: unknown }).equipment = { head: "bronze_sword" };
        }),
        /team\[0\]\.equipment\.head .*bronze_sword is worn in weapon, not head/,
      ],
      [
        variant((t) => {
          t.success = { killed: { mob: "dragonette" } };
        }),
        /success\.killed\.mob .*unknown mob "dragonette"/,
      ],
      [
        variant((t) => {
          t.success = { delivered: { item: "pine_log", npc: "nobody_here" } };
        }),
        /success\.delivered\.npc .*unknown NPC/,
      ],
      [
        variant((t) => {
          t.success = { not: { holds: { item: "pine_log", agent: "ghost" } } };
        }),
        /success\.not\.holds\.agent .*unknown agent "ghost"/,
      ],
      [
        variant((t) => {
          t.success = { custom: "never_registered" };
        }),
        /success\.custom .*no custom predicate "never_registered"/,
      ],
      [
        variant((t) => {
          t.world = { mobs: [{ id: "mob_1", mob: "field_rat", x: 530, y: 384 }] };
        }),
        /world\.mobs\[0\]\.id .*mob id "mob_1" is taken/,
      ],
      [
        variant((t) => {
          t.world = { depleted_nodes: [{ node: "node_999999" }] };
        }),
        /world\.depleted_nodes\[0\]\.node .*unknown harvest point/,
      ],
      [
        variant((t) => {
          t.team[0] = { ...t.team[0], spawn: { x: 0, y: 0 } };
        }),
        /team\[0\]\.spawn .*not a walkable tile/,
      ],
      [
        variant((t) => {
          t.team.push({ ...t.team[0] });
        }),
        /team\[4\]\.id .*"lumberjack" is used twice/,
      ],
      [
        variant((t) => {
          t.team = t.team.slice(0, 2);
        }),
        /team .*Too small: expected array to have >=3 items/,
      ],
    ];
    for (const [text, want] of cases) expect(errorOf(text)).toMatch(want);
  });

  it("checks the reference: team members, turn order, tool arguments and the round budget", () => {
    const swap = variant((t) => {
      const ref = t.reference as unknown[][];
      ref[0]?.reverse();
    });
    expect(errorOf(swap)).toMatch(/reference\[0\]\[1\]\.agent .*lumberjack is out of turn order/);
    const args = variant((t) => {
      const ref = t.reference as Array<Array<{ call: { args: Record<string, unknown> } }>>;
      const first = ref[0]?.[0];
      if (first !== undefined) first.call.args.x = "east";
    });
    expect(errorOf(args)).toMatch(/reference\[0\]\[0\]\.call\.args\.x .*number/);
    expect(
      errorOf(
        variant((t) => {
          t.max_rounds = 3;
        }),
      ),
    ).toMatch(/reference .*14 rounds, more than max_rounds \(3\)/);
  });

  it("accepts a registered custom predicate", () => {
    registerWorldPredicate("load_test_always", () => ({ holds: true, detail: "always" }));
    const spec = parseWorldTask(
      variant((t) => {
        t.success = { custom: "load_test_always", args: { n: 1 } };
      }),
      "t.yaml",
      world,
    );
    expect(spec.success).toEqual({ custom: "load_test_always", args: { n: 1 } });
  });

  it("loads a folder with unique ids and rejects duplicates and round-0 traps", () => {
    const ids = loadWorldTasks("world-tasks", world).map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining(["bronze-arrows", "market-supply", "warden-hunt"]));
    expect(new Set(ids).size).toBe(ids.length);
    const dir = mkdtempSync(join(tmpdir(), "world-tasks-"));
    writeFileSync(join(dir, "a.yaml"), base);
    writeFileSync(join(dir, "b.yaml"), base);
    expect(() => loadWorldTasks(dir, world)).toThrow(
      /b\.yaml: id: "bronze-arrows" is also the id of .*a\.yaml/,
    );
    const trap = mkdtempSync(join(tmpdir(), "world-tasks-"));
    writeFileSync(
      join(trap, "t.yaml"),
      variant((t) => {
        (t.checkpoints as unknown[]).push({
          id: "has_feathers",
          predicate: { holds: { item: "feather", qty: 15 } },
        });
      }),
    );
    expect(() => loadWorldTasks(trap, world)).toThrow(
      /already true at round 0 \(nothing done yet\): has_feathers/,
    );
  });
});
