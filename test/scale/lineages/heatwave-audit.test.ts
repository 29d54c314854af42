import { join } from "node:path";
import { expect, it } from "vitest";
import { checkTask } from "../../../src/runner/check-task.js";
import { getSandboxProvider } from "../../../src/sandbox/registry.js";
import { loadTask } from "../../../src/task/load.js";
import { describeBundledLineage } from "../support/bundled-lineage.js";

// A program task whose hidden inputs go through a folder channel; its deepest child then passes
// `task check` like any task. Of the bundled folder-channel tasks, the cheapest lineage to verify
// (seed 7, depth 10: about 54 s of CPU, where loan-schedule's takes 91 s; docs/benchmarks.md).
describeBundledLineage("heatwave-audit", {
  more: (lineage) => {
    it("the depth-10 child passes task check", async () => {
      const task = await loadTask(join(lineage().outDir, "heatwave-audit-b1-d10"));
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
