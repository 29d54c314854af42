import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { basicTransforms } from "../../src/scale/transforms/registry.js";
import { tempDir } from "../runner/helpers.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");
const BASIC = ["base64", "gzip", "move-rename", "split"];
const present = basicTransforms().map((t) => t.name);
const hasLibrary = BASIC.every((n) => present.includes(n));

/** The same lineage as lineage-e2e, over the real basic library (when it is registered). */
describe.skipIf(!hasLibrary)("a depth-3 lineage over the real basic library", () => {
  it("approves every child with every check passing, each with a real trial", async () => {
    const res = await scaleTask({
      taskDir: LEDGER,
      outDir: join(tempDir("res-real"), "out"),
      depth: 3,
      children: 1,
      library: "basic",
      mode: "recursive",
      seed: 11,
      provider: getSandboxProvider("bwrap"),
    });
    const kids = res.nodes.filter((n) => n.status !== "root");
    expect(kids.map((n) => n.status)).toEqual(["approved", "approved", "approved"]);
    for (const n of kids) {
      expect(n.checks.every((c) => c.status === "pass")).toBe(true);
      expect(n.plan?.steps.every((s) => present.includes(s.transform))).toBe(true);
    }
  }, 120_000);
});
