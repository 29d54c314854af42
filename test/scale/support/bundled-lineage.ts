import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../../src/sandbox/registry.js";
import { scaleTask } from "../../../src/scale/lineage/scale.js";
import type { LineageNode } from "../../../src/scale/lineage/store.js";
import { tempDir } from "../../runner/helpers.js";

/** Depth of the suite's full lineages; the seed of every proposer here is fixed too. */
export const DEPTH = 10;
const SEED = 7;

/** How one bundled lineage is grown and read: its depth (default 10) and tests of its own. */
export interface BundledLineageOptions {
  depth?: number;
  more?: (lineage: () => BundledLineage) => void;
}

export interface BundledLineage {
  outDir: string;
  nodes: LineageNode[];
}

/**
 * Grows the lineage (depth 10 unless told) of one bundled task with every child verified by real sandboxes
 * (the fresh-sandbox restore and both oracle trials included) and asserts what every such lineage
 * must show. One file per task (test/scale/lineages/), so that the suite's two workers share them;
 * `more` adds tests that read the finished lineage.
 */
export function describeBundledLineage(name: string, options: BundledLineageOptions = {}): void {
  const depth = options.depth ?? DEPTH;
  const provider = getSandboxProvider("bwrap");
  let lineage: BundledLineage | undefined;
  const get = (): BundledLineage => {
    if (lineage === undefined) throw new Error(`the ${name} lineage was not built`);
    return lineage;
  };

  describe(`depth-${depth} lineage of ${name}, all verified`, () => {
    beforeAll(async () => {
      lineage = await scaleTask({
        taskDir: resolve(import.meta.dirname, "../../../tasks", name),
        outDir: join(tempDir("res-bundled"), name),
        depth,
        children: 1,
        library: "full",
        mode: "recursive",
        seed: SEED,
        provider,
        trials: true,
      });
    }, 900_000);

    it(`${depth} approved child${depth === 1 ? "" : "ren"}, every check passed`, () => {
      const kids = get().nodes.filter((n) => n.status !== "root");
      expect(kids.map((n) => `${n.depth}:${n.status}`)).toEqual(
        Array.from({ length: depth }, (_, i) => `${i + 1}:approved`),
      );
      for (const n of kids) {
        expect(n.checks.map((c) => `${c.name}:${c.status}`).sort(), n.id).toEqual([
          "leak:pass",
          "oracle:pass",
          "protected:pass",
          "reproducible:pass",
          "restore:pass",
        ]);
      }
    });

    it("the restore path grows with depth and the root's bare oracle fails every child", () => {
      const kids = get().nodes.filter((n) => n.status === "approved");
      const steps = kids.map((n) => n.channel?.steps.length ?? 0);
      expect(steps).toEqual(Array.from({ length: depth }, (_, i) => 2 * (i + 1)));
      for (const n of kids) {
        const detail = n.checks.find((c) => c.name === "oracle")?.detail ?? "";
        // The bare trial's grader stops at its first failed subtask: its R is "< 1" or a number.
        const m = /child oracle R = ([\d.]+); root oracle alone R (< 1 \(|= ([\d.]+))/.exec(detail);
        expect(m, `${n.id}: ${detail}`).not.toBeNull();
        expect(Number(m?.[1])).toBe(1);
        if (m?.[3] !== undefined) expect(Number(m[3])).toBeLessThan(1);
      }
    });

    options.more?.(get);
  });
}
