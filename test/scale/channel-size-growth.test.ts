import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { ChannelProposer, channelDeclFor } from "../../src/scale/channel/plan-channel.js";
import { SIZE_GROWTH_BUDGET, SizeGrowth } from "../../src/scale/channel/size-growth.js";
import { type ChannelDecl, channelStep, type InputKind } from "../../src/scale/channel/steps.js";
import type { ProposeRequest } from "../../src/scale/plan/proposer.js";

function request(seed: number, channel: ChannelDecl | null): ProposeRequest {
  return { tree: new Map(), resources: [], library: "full", transforms: [], steps: 2, seed, channel };
}

const input = (kind: InputKind) => ({ program: "/app/tool.py", inputIndex: 2, inputKind: kind });

/** A seeded recursive lineage's channels; `blind` plans each level without the parent's channel (no budget across levels). */
function lineage(kind: InputKind, seed: number, blind = false): ChannelDecl[] {
  const p = new ChannelProposer(input(kind));
  const out: ChannelDecl[] = [];
  let parent: ChannelDecl | null = null;
  for (let d = 1; d <= 10; d++) {
    const plan = p.propose(request(new Rng(`${seed}:${d}`).nextU32(), blind ? null : parent));
    if (plan === null) throw new Error(`no plan at depth ${d}`);
    parent = channelDeclFor(parent, input(kind), plan);
    out.push(parent);
  }
  return out;
}

describe("a file channel's size growth, measured on the sample through the kit", () => {
  it("measures what each step does to the sample", () => {
    const file = new SizeGrowth("file");
    const [none, b64, gz, utf16, twice] =
      file.measure([
        [],
        [channelStep("base64", 1)],
        [channelStep("gzip", 1)],
        [channelStep("text-reencode", 1)],
        [channelStep("text-reencode", 1), channelStep("text-reencode", 2)],
      ]) ?? [];
    expect(none).toBe(1);
    expect(b64).toBeGreaterThan(1.33);
    expect(b64).toBeLessThan(1.4); // 4 bytes for 3, a newline every 76
    expect(gz).toBeLessThan(0.6);
    expect(utf16).toBeGreaterThan(1.99);
    expect(utf16).toBeLessThan(2.01);
    // UTF-16 text is no longer UTF-8: a second re-encode leaves it alone.
    expect(twice).toBe(utf16);
    const folder = new SizeGrowth("folder");
    const [manifest, archive] =
      folder.measure([[channelStep("manifest", 1)], [channelStep("archive", 1)]]) ?? [];
    expect(manifest).toBeGreaterThan(1);
    expect(manifest).toBeLessThan(1.05);
    expect(archive).toBeGreaterThan(1);
  });

  it("keeps seeded depth-10 lineages within the budget, which planning level by level alone would pass", () => {
    const worst = { kept: 0, blind: 0 };
    for (const kind of ["file", "folder"] as const) {
      const sizes = new SizeGrowth(kind);
      for (const seed of [7]) {
        const kept = sizes.measure(lineage(kind, seed).map((d) => d.steps)) ?? [];
        const blind = sizes.measure(lineage(kind, seed, true).map((d) => d.steps)) ?? [];
        expect(kept).toHaveLength(10);
        worst.kept = Math.max(worst.kept, ...kept);
        worst.blind = Math.max(worst.blind, ...blind);
      }
    }
    expect(worst.kept).toBeLessThanOrEqual(SIZE_GROWTH_BUDGET);
    expect(worst.blind).toBeGreaterThan(SIZE_GROWTH_BUDGET);
  });

  it("within the budget, the parent's channel does not change the draw", () => {
    const p = new ChannelProposer(input("folder"));
    // split keeps the size: every level after it measures as it would alone.
    const parent: ChannelDecl = {
      program: "/app/tool.py",
      input_index: 2,
      input_kind: "folder",
      steps: [channelStep("split", 3)],
    };
    for (let seed = 0; seed < 12; seed++) {
      expect(p.propose(request(seed, parent))).toEqual(p.propose(request(seed, null)));
    }
  });
});
