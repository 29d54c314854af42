import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { tempDir } from "../runner/helpers.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

/**
 * `scale --timeout-multiplier` reaches the verifier's own oracle trials (check d) and the root's
 * oracle check, not only the adaptive stop's target agent: timeouts scaled to nothing leave no
 * time for an oracle. A fresh lineage then stops at the root check; a lineage whose root was
 * verified with the default goes on under the tiny multiplier, and its new candidate is rejected
 * at check (d), where the same lineage with the default approves it.
 */
describe("the verifier's oracle trials under --timeout-multiplier", () => {
  const grow = (outDir: string, children: number, timeoutMultiplier: number | undefined, resume = false) =>
    scaleTask({
      taskDir: LEDGER,
      outDir,
      depth: 1,
      children,
      library: "basic",
      mode: "recursive",
      seed: 7,
      repairs: 0,
      provider: getSandboxProvider("bwrap"),
      resume,
      ...(timeoutMultiplier === undefined ? {} : { timeoutMultiplier }),
    });

  it("rejects the candidate at check (d) when the trials get no time, approves it otherwise", async () => {
    const rootStarved = await grow(tempDir("res-timeouts"), 1, 1e-6).catch((e: unknown) => e);
    expect(rootStarved).toBeInstanceOf(UserError);
    expect((rootStarved as Error).message).toMatch(
      /the root task's own oracle scores R = null \(grading_error: verifier timed out/,
    );
    const out = tempDir("res-timeouts");
    const normal = await grow(out, 1, undefined);
    expect(normal.nodes.filter((n) => n.status === "approved").length).toBe(1);
    // The root is verified: the second chain's candidate meets the tiny timeouts in check (d).
    const starved = await grow(out, 2, 1e-6, true);
    const discarded = starved.nodes.filter((n) => n.status === "discarded");
    expect(starved.nodes.filter((n) => n.status === "approved").map((n) => n.branch)).toEqual([1]);
    expect(discarded.map((n) => n.branch)).toEqual([2]);
    expect(discarded[0]?.diagnostics.map((d) => d.code)).toContain("oracle-fails");
  }, 240_000);
});
