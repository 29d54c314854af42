import { join } from "node:path";
import { expect, it } from "vitest";
import { checkTask } from "../../../src/runner/check-task.js";
import { getSandboxProvider } from "../../../src/sandbox/registry.js";
import { loadTask } from "../../../src/task/load.js";
import { describeBundledLineage } from "../support/bundled-lineage.js";

// A program task whose hidden inputs go through a folder channel; its deepest child then passes
// `task check` like any task.
describeBundledLineage("loan-schedule", {
  more: (lineage) => {
    it("the depth-10 child passes task check", async () => {
      const task = await loadTask(join(lineage().outDir, "loan-schedule-b1-d10"));
      // One seed here, quick (oracle, nop, partial, the partial re-run): every bundled task's
      // depth-10 child passes the five-seed CLI check too (docs/benchmarks.md).
      const report = await checkTask(task, {
        provider: getSandboxProvider("bwrap"),
        seeds: [1000],
        quick: true,
      });
      expect(report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
      expect(report.ok).toBe(true);
    }, 900_000);
  },
});
