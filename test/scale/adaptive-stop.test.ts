import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { THRESHOLDS } from "../../src/analysis/summary-types.js";
import { lineageCost } from "../../src/scale/lineage/render.js";
import { TARGET_TRIALS_DIR } from "../../src/scale/lineage/scale.js";
import { type LineageNode, readLineage } from "../../src/scale/lineage/store.js";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

/** A lineage of ledger-report whose children the target agent attempts (verifier trials off: the target's are the real ones here). */
async function scaleWithTarget(agent: string, depth: number, attempts: number) {
  const out = join(tempDir(`res-target-${agent}`), "out");
  const r = await cli([
    "scale",
    LEDGER,
    "--depth",
    String(depth),
    "--library",
    "basic",
    "--seed",
    "5",
    "--no-trials",
    "--target-agent",
    agent,
    "--target-attempts",
    String(attempts),
    "--out",
    out,
  ]);
  return { out, r, nodes: readLineage(out) };
}

function children(nodes: LineageNode[]): LineageNode[] {
  return nodes.filter((n) => n.status !== "root");
}

describe("adaptive stop with the oracle as target: its children's oracle passes, so the chain never stops", () => {
  let run: Awaited<ReturnType<typeof scaleWithTarget>>;
  beforeAll(async () => {
    run = await scaleWithTarget("oracle", 2, 1);
  }, 90_000);

  it("reaches the full depth, each child passed by the target", () => {
    expect(run.r.code).toBe(0);
    const kids = children(run.nodes);
    expect(kids.map((n) => [n.id, n.status])).toEqual([
      ["ledger-report-b1-d1", "approved"],
      ["ledger-report-b1-d2", "approved"],
    ]);
    for (const n of kids) {
      expect(n.target).toMatchObject({ agent: "oracle", model: null, attempts: 1, passes: 1, passed: true });
      expect(n.target?.rewards).toEqual([1]);
      expect(n.target?.outcomes).toEqual(["completed"]);
      expect(n.target?.threshold).toBe(THRESHOLDS.pass);
      expect(n.target?.seconds).toBeGreaterThan(0);
      expect(existsSync(join(run.out, TARGET_TRIALS_DIR, n.id, "a1", "result.json"))).toBe(true);
    }
  });

  it("reports construction cost apart from target evaluation, in `scale` and `scale tree`", async () => {
    const cost = lineageCost(run.nodes);
    const kids = children(run.nodes);
    expect(cost.construction.seconds).toBeCloseTo(
      kids.reduce((s, n) => s + n.seconds, 0),
      2,
    );
    expect(cost.target?.seconds).toBeCloseTo(
      kids.reduce((s, n) => s + (n.target?.seconds ?? 0), 0),
      2,
    );
    expect(cost.target?.trials).toBe(2);
    // Verifier trials off: no root check either, and no line for one.
    expect(cost.construction.rootCheck).toBeNull();
    expect(run.r.stdout).toMatch(/^construction: [\d.]+ s, 0 input \+ 0 output tokens \(2 approved/m);
    expect(run.r.stdout).not.toMatch(/^root check/m);
    expect(run.r.stdout).toMatch(
      /^target evaluation \(oracle\): [\d.]+ s, 0 input \+ 0 output tokens \(2 trials on 2 children\)/m,
    );
    const tree = await cli(["scale", "tree", run.out]);
    expect(tree.stdout).toMatch(/target: oracle 1\/1 ≥ 0\.95 \(R 1\), passed/);
    expect(tree.stdout).toContain(`target evaluation (oracle): ${cost.target?.seconds.toFixed(1)} s`);
  });
});

describe("adaptive stop with nop as target: it fails the first child, so nothing deeper is built", () => {
  let run: Awaited<ReturnType<typeof scaleWithTarget>>;
  beforeAll(async () => {
    run = await scaleWithTarget("nop", 3, 2);
  }, 90_000);

  it("stops the chain at depth 1 and records both failed attempts", () => {
    expect(run.r.code).toBe(0);
    const kids = children(run.nodes);
    expect(kids.map((n) => [n.id, n.status, n.depth])).toEqual([["ledger-report-b1-d1", "approved", 1]]);
    const t = kids[0]?.target;
    expect(t).toMatchObject({ agent: "nop", attempts: 2, passes: 0, passed: false });
    expect(t?.rewards).toHaveLength(2);
    for (const r of t?.rewards ?? []) expect(r === null || r < THRESHOLDS.pass).toBe(true);
    expect(run.r.stderr).toMatch(/target nop failed all 2 attempt\(s\); chain 1 stops at depth 1/);
    expect(existsSync(join(run.out, "ledger-report-b1-d2"))).toBe(false);
  });

  it("refuses an unknown target agent before building anything", async () => {
    const out = join(tempDir("res-target-bad"), "out");
    const r = await cli(["scale", LEDGER, "--depth", "1", "--target-agent", "no-such-agent", "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown agent "no-such-agent"/);
    expect(existsSync(out)).toBe(false);
  });
});
