import { describe, expect, it } from "vitest";
import { listTransforms } from "../../src/scale/transforms/registry.js";
import type { FileTree } from "../../src/scale/types.js";
import { chooseTargets, sampleEnvironments, targetsLosingMode } from "../support/transform-conformance.js";

/**
 * A tree holds bytes only, so a transform that moves, renames, wraps or remakes a file would
 * restore it without its execute bits, and a parent solution that runs it (`./tools/x`) would fail
 * in the child. Every transform of the registry, bound to an executable file, must bring it back
 * executable through the restore steps a child publishes.
 */
describe("restore steps bring back an executable target's execute bits", () => {
  const trees = sampleEnvironments();
  for (const t of listTransforms()) {
    it(t.name, () => {
      const found = trees.flatMap((tree) => chooseTargets(t, tree).map((targets) => ({ tree, targets })));
      const first = found[0] as { tree: FileTree; targets: string[] } | undefined;
      expect(first, `${t.name} accepts no file of the sample environments`).toBeDefined();
      if (first === undefined) return;
      expect(targetsLosingMode(t, first.tree, first.targets, 1)).toEqual([]);
    });
  }
});
