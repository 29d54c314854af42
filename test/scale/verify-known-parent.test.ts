import { cpSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { loadParent } from "../../src/scale/child/build-child.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { loadForVerify } from "../../src/scale/verify/context.js";
import { tempDir } from "../runner/helpers.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

/**
 * `scale` hands the verifier the parent it read from disk when it approved it, so a child's
 * verification does not read and checksum the whole parent again; any other parent is read.
 */
describe("the verifier takes the frozen parent scale already read", () => {
  it("uses it only when it is the folder res.json names", async () => {
    const root = join(tempDir("res-known-parent"), "ledger-report");
    cpSync(LEDGER, root, { recursive: true });
    const out = join(tempDir("res-known-parent-out"), "out");
    const r = await scaleTask({
      taskDir: root,
      outDir: out,
      depth: 1,
      children: 1,
      library: "full",
      mode: "recursive",
      seed: 3,
      provider: getSandboxProvider("bwrap"),
      trials: false,
    });
    expect(r.nodes.filter((n) => n.status === "approved")).toHaveLength(1);
    const child = join(out, "ledger-report-b1-d1");
    const known = await loadParent(root);
    const same = await loadForVerify(child, undefined, known);
    if (!same.ok) throw new Error(JSON.stringify(same.diagnostics));
    expect(same.parent).toBe(known);
    // A parent read from another folder (a copy) is not the one res.json names: read from disk.
    const copy = join(tempDir("res-known-parent-copy"), "ledger-report");
    cpSync(root, copy, { recursive: true });
    const other = await loadForVerify(child, undefined, await loadParent(copy));
    if (!other.ok) throw new Error(JSON.stringify(other.diagnostics));
    expect(other.parent.dir).toBe(root);
    expect(other.parent.checksum).toBe(known.checksum);
  }, 120_000);
});
