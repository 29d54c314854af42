import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { augmentWorldTasks } from "../../src/cli/commands/world-augment.js";
import { baselinesTable } from "../../src/cli/commands/world-baselines.js";
import { checkWorldTasks } from "../../src/cli/commands/world-check.js";
import { createWorld } from "../../src/world/build/world.js";
import { loadWorldTask } from "../../src/world/task/load.js";
import type { WorldPredicate } from "../../src/world/task/schema.js";
import { AUGMENT_FACTORS, augmentTask } from "../../src/world/trial/augment.js";
import { baselineConditions, runBaselines } from "../../src/world/trial/baselines.js";
import { tempDir } from "../runner/helpers.js";
import { ORIGINAL_TASK_FILES, WORLD_TASKS_DIR } from "./task-sample.js";

const WORLD_TASKS = WORLD_TASKS_DIR;
const world = createWorld();

/** Every (kind, item) → qty a predicate asks for. */
function amounts(p: WorldPredicate, out = new Map<string, number>()): Map<string, number> {
  if ("all" in p) for (const q of p.all) amounts(q, out);
  else if ("any" in p) for (const q of p.any) amounts(q, out);
  else if ("holds" in p) out.set(`holds ${p.holds.item}`, p.holds.qty);
  else if ("crafted" in p) out.set(`crafted ${p.crafted.item}`, p.crafted.qty);
  else if ("delivered" in p) out.set(`delivered ${p.delivered.item}`, p.delivered.qty);
  return out;
}

describe("world augment", () => {
  it("scales every goal amount and task item by one factor, moves spawns, drops the reference, deterministically", () => {
    const spec = loadWorldTask(join(WORLD_TASKS, "bronze-arrows.yaml"), world);
    const a = augmentTask(spec, world, 7);
    expect(augmentTask(spec, world, 7)).toEqual(a);
    const f = Number(/×([\d.]+)/.exec(a.changes[0] ?? "")?.[1]);
    expect(AUGMENT_FACTORS).toContain(f);
    expect(a.spec).toMatchObject({ id: "bronze-arrows-v1", variant_of: "bronze-arrows" });
    expect(a.spec.reference).toBeUndefined();
    const before = amounts(spec.success);
    for (const [k, q] of amounts(a.spec.success)) expect(q, k).toBe(Math.ceil((before.get(k) ?? 0) * f));
    expect(a.spec.team.find((m) => m.id === "fletcher")?.inventory).toEqual([
      { item: "feather", qty: Math.ceil(15 * f) },
    ]);
    expect(a.spec.max_rounds).toBeGreaterThan(spec.max_rounds);
    expect(a.spec.team.some((m, i) => JSON.stringify(m.spawn) !== JSON.stringify(spec.team[i]?.spawn))).toBe(
      true,
    );
  });

  it("grows every within_rounds deadline as it grows the budget", () => {
    const spec = loadWorldTask(join(WORLD_TASKS, "dusk-camp.yaml"), world);
    const deadlines = (p: WorldPredicate): number[] =>
      "all" in p
        ? p.all.flatMap(deadlines)
        : "any" in p
          ? p.any.flatMap(deadlines)
          : "within_rounds" in p
            ? [p.within_rounds]
            : [];
    const before = [spec.success, ...spec.checkpoints.map((c) => c.predicate)].flatMap(deadlines);
    expect(before).toEqual([14, 14]);
    for (const seed of [1, 2, 3, 4]) {
      const a = augmentTask(spec, world, seed);
      const f = Number(/×([\d.]+)/.exec(a.changes[0] ?? "")?.[1]);
      const grow = 1 + (f - 1) / 2;
      expect(a.spec.max_rounds).toBe(Math.ceil(22 * grow));
      const after = [a.spec.success, ...a.spec.checkpoints.map((c) => c.predicate)].flatMap(deadlines);
      expect(after, `seed ${seed}`).toEqual([Math.ceil(14 * grow), Math.ceil(14 * grow)]);
      expect(a.changes).toContain(`2 within_rounds deadline(s) ×${grow}`);
    }
  });

  it("writes a variant of each bundled task that the scripted team solves and world check passes", async () => {
    const out = tempDir("world-augment");
    const lines = await augmentWorldTasks(ORIGINAL_TASK_FILES, world, {
      out,
      seed: 1,
      tries: 5,
      team: "scripted",
    });
    expect(lines.map((l) => [l.ok, l.text.split(":")[0]])).toEqual(
      ["bronze-arrows", "market-supply", "warden-hunt"].map((id) => [true, join(out, `${id}-v1.yaml`)]),
    );
    const text = readFileSync(join(out, "bronze-arrows-v1.yaml"), "utf8");
    expect(text.split("\n")[0]).toMatch(
      /^# A variant of bronze-arrows \(bronze-arrows\.yaml\), longhaul world augment --seed \d+: goal quantities ×/,
    );
    const checked = await checkWorldTasks([out], world);
    expect(checked.filter((l) => !l.ok).map((l) => l.text)).toEqual([]);
    // Same seed, same bytes.
    const again = tempDir("world-augment");
    await augmentWorldTasks([join(WORLD_TASKS, "bronze-arrows.yaml")], world, {
      out: again,
      seed: 1,
      tries: 5,
      team: "scripted",
    });
    expect(readFileSync(join(again, "bronze-arrows-v1.yaml"), "utf8")).toBe(text);
  });

  it("reports a task with no solvable variant among its draws", async () => {
    const out = tempDir("world-augment");
    const [line] = await augmentWorldTasks([join(WORLD_TASKS, "warden-hunt.yaml")], world, {
      out,
      seed: 1,
      tries: 2,
      team: "nop",
    });
    expect(line?.ok).toBe(false);
    expect(line?.text).toMatch(
      // Seed 2 moves a spawn into a visited-region checkpoint: caught as a round-0 trap.
      /^no solvable variant in 2 draws: seed 1: nop fails \(.*\); seed 2: true at round 0 \(reached_warden\)$/,
    );
  });
});

describe("world baselines", () => {
  it("scores the team under every baseline on main and augmented tasks, with counts", async () => {
    const out = tempDir("world-baselines");
    const main = [loadWorldTask(join(WORLD_TASKS, "bronze-arrows.yaml"), world)];
    await augmentWorldTasks([join(WORLD_TASKS, "bronze-arrows.yaml")], world, {
      out,
      seed: 1,
      tries: 5,
      team: "scripted",
    });
    const augmented = [loadWorldTask(join(out, "bronze-arrows-v1.yaml"), world)];
    const rows = await runBaselines({ main, augmented }, world, baselineConditions("scripted"), [1]);
    expect(rows.map((r) => r.condition.name)).toEqual([
      "scripted (full)",
      "random",
      "scripted + no-comm",
      "scripted + shared-plan",
      "scripted + merged",
      "scripted + oracle-comm",
    ]);
    const sr = (name: string, set: string): number | undefined =>
      rows.find((r) => r.condition.name === name)?.sets[set]?.sr;
    expect([sr("scripted (full)", "main"), sr("scripted (full)", "augmented")]).toEqual([1, 1]);
    // Without hand-overs no chain of this task can finish.
    expect([sr("scripted + no-comm", "main"), sr("scripted + no-comm", "augmented")]).toEqual([0, 0]);
    const table = baselinesTable(rows).split("\n");
    expect(table[0]).toMatch(/^condition\s+main SR\s+main PSR\s+augmented SR\s+augmented PSR$/);
    expect(table[2]).toMatch(/^scripted \(full\)\s+1\.00 \(1\/1\)\s+1\.00\s+1\.00 \(1\/1\)\s+\d\.\d\d$/);
  });
});
