import { describe, expect, it } from "vitest";
import { checkWorldTasks } from "../../src/cli/commands/world-check.js";
import { createWorld } from "../../src/world/build/world.js";
import { worldTaskFiles } from "../../src/world/task/load.js";
import { WORLD_TASKS_DIR } from "./task-sample.js";

/**
 * `longhaul world check` over one slice of the whole bundled set (the main tasks and their
 * variants under world-tasks/variants/): every `of`-th file from `slice` on, so the slices, which
 * are separate test files, run on separate workers and the set costs half its time in wall clock.
 * Each task: schema, no round-0 trap, its reference replays to success, the scripted team succeeds,
 * a waiting team fails, and every role alone fails.
 */
export function describeWorldCheckSlice(slice: number, of: number): void {
  describe(`world check over the bundled set, slice ${slice + 1} of ${of}`, () => {
    it("passes every task of the slice", async () => {
      const files = worldTaskFiles([WORLD_TASKS_DIR]).filter((_, i) => i % of === slice);
      // Main tasks and their variants: each slice holds its share of both.
      expect(files.length).toBeGreaterThanOrEqual(Math.floor(170 / of));
      const lines = await checkWorldTasks(files, createWorld());
      expect(lines.filter((l) => !l.ok).map((l) => `${l.file}: ${l.text}`)).toEqual([]);
      expect(lines).toHaveLength(files.length);
    }, 300_000);
  });
}
