/**
 * What planning a program task's channel costs: the planner measures a file or folder channel's
 * size growth on a sample (docs/scale.md, "size budget"), presenting it through the channel kit
 * in Python. Two measurers side by side in one run, on the same requests:
 *  - session: one Python process per level, which keeps every prefix it has presented (now);
 *  - per call: a fresh process for every measurement, each presenting its channels from the start.
 * Both must give the same plans. Run: npx tsx bench/channel-planning.ts [--seeds 6]
 */
import { Rng } from "../src/core/rng.js";
import { ChannelProposer, channelDeclFor } from "../src/scale/channel/plan-channel.js";
import { SizeGrowth } from "../src/scale/channel/size-growth.js";
import type { ChannelDecl, ChannelStep, InputKind } from "../src/scale/channel/steps.js";
import type { Plan } from "../src/scale/plan/schema.js";

/** A fresh process per measurement, as the planner did before sessions. */
class PerCall extends SizeGrowth {
  override async measure(channels: readonly (readonly ChannelStep[])[]): Promise<number[] | null> {
    const r = await super.measure(channels);
    this.close();
    return r;
  }
}

interface Case {
  name: string;
  plan: (p: ChannelProposer) => Promise<Plan[]>;
}

const request = (seed: number, steps: number, channel: ChannelDecl | null) =>
  ({ tree: new Map(), resources: [], library: "full", transforms: [], steps, seed, channel }) as const;

function cases(kind: InputKind, seeds: number): Case[] {
  const input = { program: "/app/tool.py", inputIndex: 2, inputKind: kind };
  const out: Case[] = [];
  for (let b = 1; b <= seeds; b++) {
    out.push({
      name: `${kind} independent 20 steps, chain ${b}`,
      plan: async (p) => {
        const plan = await p.propose(request(new Rng(`7:independent:${b}:1`).nextU32(), 20, null));
        return plan === null ? [] : [plan];
      },
    });
  }
  for (const s of [7, 8, 9]) {
    out.push({
      name: `${kind} recursive depth 10, seed ${s}`,
      plan: async (p) => {
        const plans: Plan[] = [];
        let parent: ChannelDecl | null = null;
        for (let d = 1; d <= 10; d++) {
          const plan = await p.propose(request(new Rng(`${s}:recursive:1:${d}`).nextU32(), 2, parent));
          if (plan === null) break;
          plans.push(plan);
          parent = channelDeclFor(parent, input, plan);
        }
        return plans;
      },
    });
  }
  return out;
}

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const i = process.argv.indexOf("--seeds");
  const seeds = i >= 0 ? Number(process.argv[i + 1]) : 6;
  const times = { session: [] as number[], perCall: [] as number[] };
  let same = true;
  for (const kind of ["folder", "file"] as const) {
    const input = { program: "/app/tool.py", inputIndex: 2, inputKind: kind };
    for (const c of cases(kind, seeds)) {
      // Alternating which goes first, so neither always meets a warmer machine.
      const order =
        times.session.length % 2 === 0
          ? (["session", "perCall"] as const)
          : (["perCall", "session"] as const);
      const got: Record<string, { ms: number; plans: string }> = {};
      for (const which of order) {
        const p = new ChannelProposer(input, which === "session" ? new SizeGrowth(kind) : new PerCall(kind));
        const t0 = performance.now();
        const plans = await c.plan(p);
        got[which] = { ms: performance.now() - t0, plans: JSON.stringify(plans) };
        p.close();
      }
      const a = got.session;
      const b = got.perCall;
      if (a === undefined || b === undefined) continue;
      times.session.push(a.ms);
      times.perCall.push(b.ms);
      if (a.plans !== b.plans) same = false;
      console.log(
        `${c.name}: session ${a.ms.toFixed(0)} ms, per call ${b.ms.toFixed(0)} ms (${(b.ms / a.ms).toFixed(1)}×)${a.plans === b.plans ? "" : "  PLANS DIFFER"}`,
      );
    }
  }
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  console.log(
    `all ${times.session.length} cases: session p50 ${p50(times.session).toFixed(0)} ms, max ${Math.max(...times.session).toFixed(0)} ms, total ${(sum(times.session) / 1000).toFixed(1)} s; ` +
      `per call p50 ${p50(times.perCall).toFixed(0)} ms, max ${Math.max(...times.perCall).toFixed(0)} ms, total ${(sum(times.perCall) / 1000).toFixed(1)} s; ` +
      `ratio of totals ${(sum(times.perCall) / sum(times.session)).toFixed(1)}×; same plans: ${same ? "yes" : "NO"}`,
  );
}

await main();
