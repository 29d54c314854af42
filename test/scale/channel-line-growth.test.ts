import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { LINE_GROWTH_BUDGET, lineGrowth, withinGrowthBudget } from "../../src/scale/channel/line-growth.js";
import { ChannelProposer, channelDeclFor, channelStepsOf } from "../../src/scale/channel/plan-channel.js";
import {
  type ChannelDecl,
  type ChannelStepName,
  channelKitPath,
  channelStep,
  STREAM_STEPS,
} from "../../src/scale/channel/steps.js";
import type { ProposeRequest } from "../../src/scale/plan/proposer.js";

const STREAM = { program: "/app/pilot.py", inputIndex: 1, inputKind: "stream" } as const;

function request(seed: number, channel: ChannelDecl | null, steps = 2): ProposeRequest {
  return { tree: new Map(), resources: [], library: "full", transforms: [], steps, seed, channel };
}

/** A seeded recursive stream lineage, as `longhaul scale` plans it level after level. */
async function lineage(seed: number, depth: number): Promise<ChannelDecl[]> {
  const p = new ChannelProposer(STREAM);
  const out: ChannelDecl[] = [];
  let parent: ChannelDecl | null = null;
  for (let d = 1; d <= depth; d++) {
    const plan = await p.propose(request(new Rng(`${seed}:${d}`).nextU32(), parent));
    if (plan === null) throw new Error(`no plan at depth ${d}`);
    parent = channelDeclFor(parent, STREAM, plan);
    out.push(parent);
  }
  return out;
}

const names = (d: ChannelDecl): ChannelStepName[] => d.steps.map((s) => s.name);

describe("a stream channel's line growth", () => {
  it("stays within the budget at every depth of seeded depth-10 lineages, using length-keeping steps past it", async () => {
    let rotates = 0;
    for (let seed = 0; seed < 40; seed++) {
      const decls = await lineage(seed, 10);
      for (const decl of decls) {
        expect(lineGrowth(names(decl)), `seed ${seed}: ${names(decl).join(",")}`).toBeLessThanOrEqual(
          LINE_GROWTH_BUDGET,
        );
      }
      rotates += names(decls.at(-1) as ChannelDecl).filter((s) => s === "line-rotate").length;
    }
    expect(rotates).toBeGreaterThan(0);
  });

  it("below the budget, the parent's channel does not change the draw (seeded lineages stay as they were)", async () => {
    const p = new ChannelProposer(STREAM);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.array(fc.constantFrom(...STREAM_STEPS), { maxLength: 8 }),
        async (seed, parentNames) => {
          const parent: ChannelDecl = {
            program: STREAM.program,
            input_index: 1,
            input_kind: "stream",
            steps: parentNames.map((n, i) => channelStep(n, i)),
          };
          const alone = await p.propose(request(seed, null));
          const child = await p.propose(request(seed, parent));
          if (alone === null || child === null) throw new Error("no plan");
          const drawn = channelStepsOf(alone, STREAM).map((s) => s.name);
          if (lineGrowth([...parentNames, ...drawn]) <= LINE_GROWTH_BUDGET) expect(child).toEqual(alone);
          else
            expect(
              lineGrowth([...parentNames, ...channelStepsOf(child, STREAM).map((s) => s.name)]),
            ).toBeLessThanOrEqual(Math.max(LINE_GROWTH_BUDGET, lineGrowth(parentNames)));
          // line-rotate is held back until a replacement is needed.
          expect(drawn).not.toContain("line-rotate");
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });

  it("replaces only the steps that would pass the budget, and leaves a level alone without a length-keeping step", () => {
    const rng = new Rng(3);
    const parent: ChannelStepName[] = ["line-hex", "line-hex", "line-hex"]; // 8x
    const got = withinGrowthBudget(parent, ["line-hex", "line-hex"], STREAM_STEPS, new Set(), rng);
    expect(got[0]).toBe("line-hex"); // 16x: at the budget, still allowed
    expect(["line-reverse", "line-rotate"]).toContain(got[1]);
    const basic = withinGrowthBudget(parent, ["line-base64"], ["line-base64"], new Set(), new Rng(3));
    expect(basic).toEqual(["line-base64"]);
    // In a level that needed a replacement, no length-keeping step repeats the one before it
    // (two reverses cancel, two rotations are one), whether that one is the parent's last step or drawn.
    for (let seed = 0; seed < 50; seed++) {
      for (const level of [
        ["line-reverse", "line-hex"],
        ["line-hex", "line-hex"],
      ] as ChannelStepName[][]) {
        const after = withinGrowthBudget(
          [...parent, "line-hex", "line-reverse"],
          level,
          STREAM_STEPS,
          new Set(),
          new Rng(seed),
        );
        expect(after, level.join(",")).toEqual(["line-rotate", "line-reverse"]);
      }
    }
  });

  it("line-rotate round-trips through the kit for empty, short and long lines", () => {
    const steps = [
      channelStep("line-rotate", 7),
      channelStep("line-reverse", 1),
      channelStep("line-rotate", 9),
    ];
    const lines = ["", "a", "ab", "päd ünïcode ✓", "x".repeat(200), '{"type": "obs", "step": 12}'];
    const py = [
      "import json, sys",
      `sys.path.insert(0, ${JSON.stringify(channelKitPath().replace(/\/[^/]+$/, ""))})`,
      "import res_channel as r",
      "steps = json.loads(sys.argv[1])",
      "out = []",
      "for line in json.loads(sys.argv[2]):",
      "    b = line.encode()",
      "    e = r.encode_line(b, steps)",
      "    out.append([e.hex(), r.decode_line(e, steps) == b])",
      "print(json.dumps(out))",
    ].join("\n");
    const res = spawnSync("python3", ["-B", "-c", py, JSON.stringify(steps), JSON.stringify(lines)], {
      encoding: "utf8",
    });
    expect(res.status, res.stderr).toBe(0);
    const got = JSON.parse(res.stdout) as [string, boolean][];
    // The published words: rotated left by K modulo the line's length; reversed.
    const rotate = (b: Buffer, k: number): Buffer => {
      const m = b.length === 0 ? 0 : k % b.length;
      return Buffer.concat([b.subarray(m), b.subarray(0, m)]);
    };
    const expected = lines.map((l) => {
      let b: Buffer = Buffer.from(l, "utf8");
      for (const s of steps) {
        b = s.name === "line-reverse" ? Buffer.from(b).reverse() : rotate(b, s.params.shift ?? 0);
      }
      return b.toString("hex");
    });
    expect(got.map((g) => g[0])).toEqual(expected);
    expect(got.map((g) => g[1])).toEqual(lines.map(() => true)); // restored
    // Lines of two or more distinct bytes change (a repeated byte or a short line may not).
    expect([3, 5].map((i) => expected[i] === Buffer.from(lines[i] ?? "").toString("hex"))).toEqual([
      false,
      false,
    ]);
  });
});
