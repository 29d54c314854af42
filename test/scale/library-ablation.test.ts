import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { channelPool } from "../../src/scale/channel/plan-channel.js";
import { loadParent } from "../../src/scale/child/build-child.js";
import { applyPlan, PlanStepError } from "../../src/scale/plan/apply.js";
import { inLibrary, libraryTransforms, NO_XREF_PREP_EXCLUDED } from "../../src/scale/plan/libraries.js";
import { LIBRARIES } from "../../src/scale/plan/schema.js";
import { SeededProposer } from "../../src/scale/plan/seeded-proposer.js";
import { listTransforms } from "../../src/scale/transforms/registry.js";
import { cli } from "./support/cli.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

describe("the no-xref-prep ablation library", () => {
  it("is a library name the plan schema accepts", () => {
    expect(LIBRARIES).toContain("no-xref-prep");
  });

  it("is the full library without cross-reference and prepare-step", () => {
    const names = libraryTransforms("no-xref-prep").map((t) => t.name);
    const full = listTransforms().map((t) => t.name);
    expect(full).toEqual(expect.arrayContaining(["cross-reference", "prepare-step"]));
    expect(names).not.toContain("cross-reference");
    expect(names).not.toContain("prepare-step");
    expect(names).toEqual(full.filter((n) => !(NO_XREF_PREP_EXCLUDED as readonly string[]).includes(n)));
    expect(libraryTransforms("full").map((t) => t.name)).toEqual(full);
  });

  it("is never used by the planner, where the full library uses both", async () => {
    const root = await loadParent(LEDGER);
    const proposer = new SeededProposer();
    const used = (library: "full" | "no-xref-prep"): Set<string> => {
      const seen = new Set<string>();
      for (let seed = 0; seed < 60; seed++) {
        const plan = proposer.propose({
          tree: root.tree.tree,
          resources: root.resources,
          library,
          transforms: libraryTransforms(library),
          steps: 3,
          seed,
        });
        for (const s of plan?.steps ?? []) seen.add(s.transform);
      }
      return seen;
    };
    const full = used("full");
    // The check below can fail only if the full planner reaches both on this task.
    expect(full.has("cross-reference")).toBe(true);
    expect(full.has("prepare-step")).toBe(true);
    const ablated = used("no-xref-prep");
    expect(ablated.size).toBeGreaterThan(5);
    expect(ablated.has("cross-reference")).toBe(false);
    expect(ablated.has("prepare-step")).toBe(false);
  });

  it("refuses a plan that declares it and uses an excluded transform", async () => {
    const root = await loadParent(LEDGER);
    const plan = {
      proposer: "test",
      library: "no-xref-prep" as const,
      seed: 1,
      steps: [{ transform: "prepare-step", targets: ["data/orders.csv"], params: undefined, seed: 3 }],
    };
    expect(() => applyPlan(root.tree.tree, plan)).toThrow(PlanStepError);
    expect(() => applyPlan(root.tree.tree, plan)).toThrow(/not in the no-xref-prep library/);
    const prep = listTransforms().find((t) => t.name === "prepare-step");
    expect(prep && inLibrary(prep, "basic")).toBe(true);
  });

  it("leaves the channel's reference step (manifest) out for program tasks", () => {
    expect(channelPool("full", "folder")).toContain("manifest");
    expect(channelPool("no-xref-prep", "folder")).not.toContain("manifest");
    expect(channelPool("no-xref-prep", "folder").length).toBe(channelPool("full", "folder").length - 1);
    expect(channelPool("no-xref-prep", "file")).toEqual(channelPool("full", "file"));
  });

  it("is refused by name when misspelt, listed in the error", async () => {
    const r = await cli(["scale", LEDGER, "--depth", "1", "--library", "no-xref", "--no-trials"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--library must be one of basic, full, no-xref-prep/);
  });
});
