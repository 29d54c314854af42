import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256 } from "../../src/core/canonical-json.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { buildChannelChildFiles } from "../../src/scale/channel/build-channel-child.js";
import { KNOWN_KITS } from "../../src/scale/channel/known-kits.js";
import { ChannelProposer } from "../../src/scale/channel/plan-channel.js";
import { channelKitPath } from "../../src/scale/channel/steps.js";
import { loadParent } from "../../src/scale/child/build-child.js";
import { writeTree } from "../../src/scale/file-tree.js";
import { parsePlan } from "../../src/scale/plan/schema.js";
import { verifyChild } from "../../src/scale/verify/verify-child.js";
import { tempDir } from "../runner/helpers.js";

const ROOT = resolve(import.meta.dirname, "../../tasks/heatwave-audit");
// The kit shipped before the wrapper stopped loading runpy (2026-12-06), as a child made then has it.
const EARLIER = readFileSync(resolve(import.meta.dirname, "../fixtures/res/earlier-kit/res_channel.py"));
const KIT_FILES = ["tests/res/res_channel.py", "solution/res/res_channel.py"];
const root = tempDir("res-known-kits");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A depth-1 child of heatwave-audit, written with today's kit, then given `kits` in place of it. */
async function child(name: string, kits: readonly Uint8Array[]): Promise<string> {
  const parent = await loadParent(ROOT);
  if (parent.program === null) throw new Error("heatwave-audit is a program task");
  const proposed = await new ChannelProposer(parent.program).propose({
    tree: new Map(),
    resources: [],
    library: "full",
    transforms: [],
    steps: 2,
    seed: 3,
  });
  const dir = join(root, name);
  const meta = { id: name, depth: 1, mode: "recursive" as const, branch: 1, attempt: 0, childDir: dir };
  writeTree(dir, buildChannelChildFiles(parent, parsePlan(proposed, "test"), meta).files);
  KIT_FILES.forEach((p, i) => {
    const kit = kits[i];
    if (kit !== undefined) writeFileSync(join(dir, p), kit);
  });
  return dir;
}

async function reproducible(dir: string): Promise<{ status: string; detail: string; codes: string[] }> {
  const v = await verifyChild(dir, { provider: getSandboxProvider("bwrap"), trials: false });
  const b = v.checks.find((c) => c.name === "reproducible");
  const a = v.checks.find((c) => c.name === "protected");
  return {
    status: `${a?.status}/${b?.status}`,
    detail: b?.detail ?? "",
    codes: v.diagnostics.map((d) => d.code),
  };
}

/**
 * A child carries the channel kit it was made with. Check (b) re-derives the child with today's
 * kit, so a child made before a kit change failed `scale verify` on the kit's two copies alone:
 * an earlier kit we shipped is accepted (and named), any other kit is not.
 */
describe("children made with an earlier channel kit", () => {
  it("lists the current kit last, so a change to the kit keeps the earlier digests", () => {
    expect(KNOWN_KITS.at(-1)).toBe(sha256(readFileSync(channelKitPath())));
    expect(KNOWN_KITS).toContain(sha256(EARLIER));
    expect(new Set(KNOWN_KITS).size).toBe(KNOWN_KITS.length);
  });

  it("pass checks (a) and (b) with an earlier kit, and not with a kit that was never shipped", async () => {
    const today = await reproducible(await child("today", []));
    expect(today).toMatchObject({ status: "pass/pass", codes: [] });
    expect(today.detail).not.toContain("earlier kit");

    const earlier = await reproducible(await child("earlier", [EARLIER, EARLIER]));
    expect(earlier).toMatchObject({ status: "pass/pass", codes: [] });
    expect(earlier.detail).toContain(`made with an earlier kit, ${sha256(EARLIER).slice(0, 12)}`);

    const forged = Buffer.concat([EARLIER, Buffer.from("\n# changed\n")]);
    const other = await reproducible(await child("forged", [forged, forged]));
    expect(other.status).toBe("fail/fail");
    expect(other.codes).toContain("non-reproducible");

    // The verifier's copy and the reference's copy must be the same earlier kit.
    const mixed = await reproducible(await child("mixed", [EARLIER, readFileSync(channelKitPath())]));
    expect(mixed.status).toBe("fail/fail");
  });
});
