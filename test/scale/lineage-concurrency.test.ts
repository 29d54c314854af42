import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import type { Sandbox, SandboxProvider } from "../../src/sandbox/types.js";
import { renderLineageTree } from "../../src/scale/lineage/render.js";
import { type ScaleOptions, scaleTask } from "../../src/scale/lineage/scale.js";
import { readLineage } from "../../src/scale/lineage/store.js";
import type {
  ProposeRequest,
  Proposer,
  ProposerUsage,
  RepairRequest,
} from "../../src/scale/plan/proposer.js";
import type { Plan } from "../../src/scale/plan/schema.js";
import { SeededProposer } from "../../src/scale/plan/seeded-proposer.js";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";
import { decided, files } from "./support/lineage-compare.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

/** The bwrap provider, counting the sandboxes alive at once (the verifier's restore checks). */
function countingProvider(): { provider: SandboxProvider; most: () => number } {
  const inner = getSandboxProvider("bwrap");
  let live = 0;
  let most = 0;
  const provider: SandboxProvider = {
    name: inner.name,
    check: () => inner.check(),
    async create(spec): Promise<Sandbox> {
      const box = await inner.create(spec);
      live++;
      most = Math.max(most, live);
      const close = async (): Promise<void> => {
        live--;
        await box.close();
      };
      return Object.assign(Object.create(box) as Sandbox, { close });
    },
  };
  return { provider, most: () => most };
}

/** The seeded planner behind a pretend model: every call waits and reports tokens of its own. */
class MeteredProposer implements Proposer {
  readonly name = "metered";
  readonly byCall: { seed: number; input: number; output: number }[] = [];
  private readonly inner = new SeededProposer();
  private total: ProposerUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };
  constructor(private readonly failOnCall: number | null = null) {}

  private async meter(seed: number, plan: () => Plan | null): Promise<Plan | null> {
    const n = this.total.calls + 1;
    if (n === this.failOnCall) throw new Error(`the proposer's call ${n} failed`);
    const input = 100 + (seed % 997);
    const output = 10 + (seed % 89);
    // Tokens arrive in two parts with a wait between, as a streamed reply's would.
    this.total = { ...this.total, calls: n, inputTokens: this.total.inputTokens + input };
    await new Promise((r) => setTimeout(r, 30));
    this.total = { ...this.total, outputTokens: this.total.outputTokens + output };
    this.byCall.push({ seed, input, output });
    return plan();
  }
  propose(r: ProposeRequest): Promise<Plan | null> {
    return this.meter(r.seed, () => this.inner.propose(r));
  }
  repair(r: RepairRequest): Promise<Plan | null> {
    return this.meter(r.seed, () => this.inner.repair(r));
  }
  usage(): ProposerUsage {
    return this.total;
  }
}

function options(out: string, over: Partial<ScaleOptions>): ScaleOptions {
  return {
    taskDir: LEDGER,
    outDir: out,
    depth: 2,
    children: 3,
    library: "basic",
    mode: "independent",
    seed: 7,
    provider: getSandboxProvider("bwrap"),
    trials: false,
    ...over,
  };
}

describe("scale -n: chains and independent children grown side by side", () => {
  it.each(["independent", "recursive"] as const)(
    "%s: -n 2 decides every node as -n 1 does, writes the same children, and overlaps their verification",
    async (mode) => {
      const one = countingProvider();
      const two = countingProvider();
      const a = join(tempDir("res-n1"), "out");
      const b = join(tempDir("res-n2"), "out");
      const children = mode === "independent" ? 3 : 2;
      const seq = await scaleTask(options(a, { mode, children, provider: one.provider, concurrency: 1 }));
      const par = await scaleTask(options(b, { mode, children, provider: two.provider, concurrency: 2 }));
      expect(par.nodes.map(decided)).toEqual(seq.nodes.map(decided));
      const approved = par.nodes.filter((n) => n.status === "approved");
      expect(approved).toHaveLength(mode === "independent" ? 3 : 4);
      for (const n of approved) expect(files(join(b, n.dir ?? "?"))).toEqual(files(join(a, n.dir ?? "?")));
      // The result is ordered by chain and depth; lineage.jsonl holds the same nodes.
      expect(par.nodes.map((n) => n.id)).toEqual(seq.nodes.map((n) => n.id));
      expect(
        readLineage(b)
          .map((n) => n.id)
          .sort(),
      ).toEqual(par.nodes.map((n) => n.id).sort());
      // `scale tree` shows chains in order whatever order the lines were decided in.
      const tree = renderLineageTree(seq.nodes);
      expect(renderLineageTree(readLineage(b))).toBe(tree);
      expect(renderLineageTree([...par.nodes].reverse())).toBe(tree);
      expect(one.most()).toBe(1);
      expect(two.most()).toBeGreaterThanOrEqual(2);
    },
    120_000,
  );

  it("verifies a program task's chains side by side with real trials (each its own sandboxes)", async () => {
    const out = join(tempDir("res-n-trials"), "out");
    // heatwave-audit: a folder channel, as loan-schedule (used here until 2026-12-06), and the
    // bundled task with the cheapest oracle trial (docs/benchmarks.md), four of which run here.
    const r = await scaleTask(
      options(out, {
        taskDir: resolve(import.meta.dirname, "../../tasks/heatwave-audit"),
        mode: "recursive",
        depth: 1,
        children: 2,
        concurrency: 2,
        trials: true,
      }),
    );
    const kids = r.nodes.filter((n) => n.status !== "root");
    expect(kids.map((n) => [n.id, n.status])).toEqual([
      ["heatwave-audit-b1-d1", "approved"],
      ["heatwave-audit-b2-d1", "approved"],
    ]);
    for (const n of kids) expect(n.checks.find((c) => c.name === "oracle")?.status).toBe("pass");
  }, 120_000);

  it("is the command's -n: two chains at once, and a clear error for -n 0", async () => {
    const out = join(tempDir("res-cli-n"), "out");
    const base = ["scale", LEDGER, "--depth", "1", "--children", "2", "--library", "basic"];
    const ok = await cli([...base, "--no-trials", "--seed", "7", "--out", out, "-n", "2"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/ledger-report-b1-d1[\s\S]*ledger-report-b2-d1/);
    const bad = await cli([...base, "--out", `${out}-bad`, "-n", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/-n/);
  }, 60_000);

  it("counts each child's tokens alone while the proposer serves several chains", async () => {
    const proposer = new MeteredProposer();
    const out = join(tempDir("res-tokens"), "out");
    const r = await scaleTask(options(out, { children: 3, concurrency: 3, proposer }));
    const kids = r.nodes.filter((n) => n.status !== "root");
    expect(kids).toHaveLength(3);
    for (const n of kids) {
      const calls = proposer.byCall.filter((c) => c.seed === n.seed);
      expect(calls).toHaveLength(n.attempts);
      expect(n.tokens).toEqual({
        input: calls.reduce((s, c) => s + c.input, 0),
        output: calls.reduce((s, c) => s + c.output, 0),
      });
    }
  }, 60_000);

  it("a chain that fails stops the others, and the error is the failure itself", async () => {
    // Call 1 is chain 1's first level; call 2, chain 2's: it throws while chain 1 is verifying.
    const proposer = new MeteredProposer(2);
    const out = join(tempDir("res-fail"), "out");
    await expect(
      scaleTask(options(out, { mode: "recursive", depth: 3, children: 2, concurrency: 2, proposer })),
    ).rejects.toThrow("the proposer's call 2 failed");
    // Chain 1's verdict came after the stop: not recorded, and it went no deeper.
    expect(readLineage(out).map((n) => n.status)).toEqual(["root"]);
    expect(readdirSync(out).filter((f) => f.startsWith(".stage-"))).toEqual([]);
    expect(existsSync(join(out, "ledger-report-b1-d2"))).toBe(false);
  }, 60_000);
});
