import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { tempDir } from "../runner/helpers.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

/**
 * `scale --timeout-multiplier` reaches the verifier's own oracle trials (check d), not only the
 * adaptive stop's target agent: timeouts scaled to nothing leave no time for the child's oracle,
 * so the only candidate is rejected at check (d), and the same lineage with the default is approved.
 */
describe("the verifier's oracle trials under --timeout-multiplier", () => {
  const grow = (timeoutMultiplier: number | undefined) =>
    scaleTask({
      taskDir: LEDGER,
      outDir: tempDir("res-timeouts"),
      depth: 1,
      children: 1,
      library: "basic",
      mode: "recursive",
      seed: 7,
      repairs: 0,
      provider: getSandboxProvider("bwrap"),
      ...(timeoutMultiplier === undefined ? {} : { timeoutMultiplier }),
    });

  it("rejects the candidate at check (d) when the trials get no time, approves it otherwise", async () => {
    const starved = await grow(1e-6);
    const discarded = starved.nodes.filter((n) => n.status === "discarded");
    expect(starved.nodes.filter((n) => n.status === "approved")).toEqual([]);
    expect(discarded.length).toBe(1);
    expect(discarded[0]?.diagnostics.map((d) => d.code)).toContain("oracle-fails");
    const normal = await grow(undefined);
    expect(normal.nodes.filter((n) => n.status === "approved").length).toBe(1);
  }, 240_000);
});
