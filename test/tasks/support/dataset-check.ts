import { describe, expect, it } from "vitest";
import { bundledTasksDir, checkTask } from "../../../src/runner/index.js";
import { getSandboxProvider } from "../../../src/sandbox/registry.js";
import { loadTasks } from "../../../src/task/index.js";
import type { Task } from "../../../src/task/types.js";
import { sampledBundledTasks } from "./dataset-sample.js";

/** The stress seeds of the suite's `task check` (the CLI runs five). */
export const SEEDS = [1000, 8919] as const;

export const bundledTasks = (): Promise<Task[]> => loadTasks([bundledTasksDir()]);

/**
 * `longhaul task check` over part `part` (1-based) of `parts` of the bundled dataset, as CI runs
 * it (bwrap over each task's image), quick: for every task, oracle R = 1.0 on the first seed and
 * partial strictly inside (0.2, 0.8) on the second, whose stress inputs differ from the first's,
 * and public weight ≤ 20%; on every third task by name (a fixed third, the first included), also
 * nop ≤ 0.05 and a deterministic verifier (the partial re-run on the second seed): 2 or 4 trials
 * per task. (The full check, every agent on every seed plus the mutants, is `longhaul task check`;
 * the mutants are sampled in mutants.test.ts.) Tasks are dealt to the parts by name, every
 * `parts`-th one, so that every sampled task falls in exactly one part, and the parts run in the
 * suite's two workers side by side. The tasks are the fixed sample of dataset-sample.ts; the
 * whole dataset is `longhaul task check tasks/`.
 */
export async function describeDatasetPart(part: number, parts: number): Promise<void> {
  const all = await sampledBundledTasks();
  const sampled = new Set(all.filter((_, i) => i % 3 === 0).map((t) => t.name));
  const mine = all.filter((_, i) => i % parts === part - 1);
  const provider = getSandboxProvider("bwrap");

  describe(`bundled dataset, part ${part} of ${parts}`, () => {
    it("holds its share of the tasks", () => {
      expect(mine.length).toBe(Math.floor(all.length / parts) + (part - 1 < all.length % parts ? 1 : 0));
      expect(mine.length).toBeGreaterThan(0);
    });

    describe.concurrent.each(mine.map((t) => [t.name, t] as const))("%s", (name, task) => {
      const full = sampled.has(name);
      it(`passes task check${full ? " (nop and determinism too)" : ""}`, { timeout: 600_000 }, async () => {
        const result = await checkTask(task, {
          provider,
          seeds: [...SEEDS],
          quick: true,
          mutants: false,
          nop: full,
          rerun: full,
        });
        const failures = result.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
        expect(failures).toEqual([]);
        expect(result.checks.some((c) => c.name.startsWith("partial"))).toBe(true);
        expect(result.checks.some((c) => c.name.startsWith("different seeds"))).toBe(true);
        const determinism = result.checks.find((c) => c.name.startsWith("verifier deterministic"));
        expect(determinism?.detail).toBe(full ? `seed ${SEEDS[1]} twice for partial` : undefined);
        expect(result.checks.some((c) => c.name.startsWith("nop"))).toBe(full);
      });
    });
  });
}
