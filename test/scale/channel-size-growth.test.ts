import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { ChannelProposer, channelDeclFor } from "../../src/scale/channel/plan-channel.js";
import { SIZE_GROWTH_BUDGET, SizeGrowth } from "../../src/scale/channel/size-growth.js";
import { type ChannelDecl, channelStep, type InputKind } from "../../src/scale/channel/steps.js";
import type { ProposeRequest } from "../../src/scale/plan/proposer.js";

function request(seed: number, channel: ChannelDecl | null): ProposeRequest {
  return { tree: new Map(), resources: [], library: "full", transforms: [], steps: 2, seed, channel };
}

/** Whether a process of ours is still there (not yet reaped counts as gone). */
function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
  } catch {
    return false;
  }
}

const input = (kind: InputKind) => ({ program: "/app/tool.py", inputIndex: 2, inputKind: kind });

/** A seeded recursive lineage's channels; `blind` plans each level without the parent's channel (no budget across levels). */
async function lineage(kind: InputKind, seed: number, blind = false): Promise<ChannelDecl[]> {
  const p = new ChannelProposer(input(kind));
  const out: ChannelDecl[] = [];
  let parent: ChannelDecl | null = null;
  for (let d = 1; d <= 10; d++) {
    const plan = await p.propose(request(new Rng(`${seed}:${d}`).nextU32(), blind ? null : parent));
    if (plan === null) throw new Error(`no plan at depth ${d}`);
    parent = channelDeclFor(parent, input(kind), plan);
    out.push(parent);
  }
  return out;
}

describe("a file channel's size growth, measured on the sample through the kit", () => {
  it("measures what each step does to the sample", async () => {
    const file = new SizeGrowth("file");
    const [none, b64, gz, utf16, twice] =
      (await file.measure([
        [],
        [channelStep("base64", 1)],
        [channelStep("gzip", 1)],
        [channelStep("text-reencode", 1)],
        [channelStep("text-reencode", 1), channelStep("text-reencode", 2)],
      ])) ?? [];
    expect(none).toBe(1);
    expect(b64).toBeGreaterThan(1.33);
    expect(b64).toBeLessThan(1.4); // 4 bytes for 3, a newline every 76
    expect(gz).toBeLessThan(0.6);
    expect(utf16).toBeGreaterThan(1.99);
    expect(utf16).toBeLessThan(2.01);
    // UTF-16 text is no longer UTF-8: a second re-encode leaves it alone.
    expect(twice).toBe(utf16);
    file.close();
    const folder = new SizeGrowth("folder");
    const [manifest, archive] =
      (await folder.measure([[channelStep("manifest", 1)], [channelStep("archive", 1)]])) ?? [];
    expect(manifest).toBeGreaterThan(1);
    expect(manifest).toBeLessThan(1.05);
    expect(archive).toBeGreaterThan(1);
    folder.close();
  });

  it("measures a longer channel from the prefixes presented before, as a fresh process would", async () => {
    const steps = [
      "gzip",
      "base64",
      "archive",
      "layered-wrap",
      "text-reencode",
      "manifest",
      "base64",
    ] as const;
    const channel = steps.map((n, i) => channelStep(n, 40 + i));
    const kept = new SizeGrowth("folder");
    const stepwise: number[] = [];
    for (let i = 1; i <= channel.length; i++) {
      stepwise.push(...((await kept.measure([channel.slice(0, i)])) ?? []));
    }
    kept.close();
    // After close, a later measure starts another process and still answers.
    expect(await kept.measure([channel.slice(0, 2), [channelStep("split", 3)]])).toHaveLength(2);
    kept.close();
    const fresh = new SizeGrowth("folder");
    const whole = (await fresh.measure(channel.map((_, i) => channel.slice(0, i + 1)))) ?? [];
    fresh.close();
    expect(stepwise).toHaveLength(channel.length);
    expect(stepwise).toEqual(whole);
  });

  it("keeps one measuring process from level to level until its owner closes it", async () => {
    const sizes = new SizeGrowth("folder");
    const p = new ChannelProposer(input("folder"), sizes);
    const pids = new Set<number>();
    let parent: ChannelDecl | null = null;
    // The levels of a recursive lineage: from depth 2 on, each level's steps are measured after
    // its parent's, in the process the level before used.
    for (let d = 1; d <= 5; d++) {
      const plan = await p.propose(request(new Rng(`keep:${d}`).nextU32(), parent));
      if (plan === null) throw new Error(`no plan at depth ${d}`);
      parent = channelDeclFor(parent, input("folder"), plan);
      const pid = sizes.processId();
      if (pid !== null) pids.add(pid);
    }
    expect(pids.size).toBe(1);
    const pid = [...pids][0] as number;
    expect(alive(pid)).toBe(true);
    p.close();
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
    expect(sizes.processId()).toBeNull();
  });

  it("measures without holding up the process (other chains' verifications run meanwhile)", async () => {
    const sizes = new SizeGrowth("folder");
    let ticks = 0;
    const timer = setInterval(() => void ticks++, 5);
    const t0 = performance.now();
    const got = await sizes.measure([
      Array.from({ length: 12 }, (_, i) => channelStep(i % 2 === 0 ? "base64" : "gzip", i)),
    ]);
    const ms = performance.now() - t0;
    clearInterval(timer);
    sizes.close();
    expect(got?.[0]).toBeGreaterThan(0);
    // A blocking measurement lets no timer fire until it returns.
    expect(ticks).toBeGreaterThanOrEqual(Math.min(3, Math.floor(ms / 5) - 1));
    expect(ticks).toBeGreaterThan(0);
  });

  it("keeps seeded depth-10 lineages within the budget, which planning level by level alone would pass", async () => {
    const worst = { kept: 0, blind: 0 };
    for (const kind of ["file", "folder"] as const) {
      const sizes = new SizeGrowth(kind);
      for (const seed of [7]) {
        const kept = (await sizes.measure((await lineage(kind, seed)).map((d) => d.steps))) ?? [];
        const blind = (await sizes.measure((await lineage(kind, seed, true)).map((d) => d.steps))) ?? [];
        expect(kept).toHaveLength(10);
        worst.kept = Math.max(worst.kept, ...kept);
        worst.blind = Math.max(worst.blind, ...blind);
      }
      sizes.close();
    }
    expect(worst.kept).toBeLessThanOrEqual(SIZE_GROWTH_BUDGET);
    expect(worst.blind).toBeGreaterThan(SIZE_GROWTH_BUDGET);
  });

  it("within the budget, the parent's channel does not change the draw", async () => {
    const p = new ChannelProposer(input("folder"));
    // split keeps the size: every level after it measures as it would alone.
    const parent: ChannelDecl = {
      program: "/app/tool.py",
      input_index: 2,
      input_kind: "folder",
      steps: [channelStep("split", 3)],
    };
    for (let seed = 0; seed < 12; seed++) {
      expect(await p.propose(request(seed, parent))).toEqual(await p.propose(request(seed, null)));
    }
  });
});
