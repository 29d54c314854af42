import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWorld } from "../../src/world/build/world.js";
import { loadWorldTask, worldTaskFiles } from "../../src/world/task/index.js";
import { SAMPLE_TASK_FILES, WORLD_TASKS_DIR } from "./task-sample.js";

/**
 * Every bundled world task, loaded and validated but not played (that is `longhaul world check
 * world-tasks/`, seconds per task): the schema and references against the world, no round-0
 * trap, and the conventions of the set.
 */
describe("the bundled world task set", () => {
  const world = createWorld();
  const all = worldTaskFiles([WORLD_TASKS_DIR]);
  const variantsDir = join(WORLD_TASKS_DIR, "variants");
  const files = all.filter((f) => dirname(f) === WORLD_TASKS_DIR);
  const variants = all.filter((f) => dirname(f) === variantsDir);

  it("holds only main tasks at the top and their variants in variants/", () => {
    expect(all.length).toBe(files.length + variants.length);
  });

  it("loads every file: schema, names, references; no condition holds at round 0", () => {
    expect(files.length).toBeGreaterThanOrEqual(SAMPLE_TASK_FILES.length);
    const ids = new Set<string>();
    for (const file of files) {
      const spec = loadWorldTask(file, world);
      const name = basename(file);
      expect(`${spec.id}.yaml`, name).toBe(name);
      expect(ids.has(spec.id), name).toBe(false);
      ids.add(spec.id);
      expect(spec.variant_of, name).toBeNull();
      expect(spec.team.length, name).toBeGreaterThanOrEqual(3);
      expect(spec.team.length, name).toBeLessThanOrEqual(20);
      // No role can finish alone, so a task needs at least two roles.
      expect(new Set(spec.team.map((m) => m.role)).size, name).toBeGreaterThanOrEqual(2);
      expect(spec.checkpoints.length, name).toBeGreaterThan(0);
      expect(spec.reference?.length ?? 0, name).toBeGreaterThan(0);
      expect(spec.reference?.length ?? 0, name).toBeLessThanOrEqual(spec.max_rounds);
      // The opening comment says what collaboration the task needs.
      expect(readFileSync(file, "utf8").startsWith("# "), name).toBe(true);
    }
    for (const f of SAMPLE_TASK_FILES) expect(files).toContain(f);
  });

  it("has one augmented variant of every main task, written by world augment", () => {
    const main = new Map(files.map((f) => [loadWorldTask(f, world).id, f]));
    const of = new Set<string>();
    for (const file of variants) {
      const spec = loadWorldTask(file, world);
      const name = basename(file);
      expect(spec.variant_of, name).not.toBeNull();
      const parent = spec.variant_of ?? "";
      expect(main.has(parent), `${name}: variant of ${parent}`).toBe(true);
      expect(`${spec.id}.yaml`, name).toBe(`${parent}-v1.yaml`);
      expect(of.has(parent), name).toBe(false);
      of.add(parent);
      // Shown solvable by the scripted team (world check), not by recorded calls.
      expect(spec.reference, name).toBeUndefined();
      expect(readFileSync(file, "utf8"), name).toMatch(
        new RegExp(`^# A variant of ${parent} \\(${parent}\\.yaml\\), longhaul world augment --seed \\d+: `),
      );
    }
    expect([...main.keys()].filter((id) => !of.has(id))).toEqual([]);
  });
});
