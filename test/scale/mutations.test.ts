import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { buildChildFiles, loadParent, type ParentInfo } from "../../src/scale/child/build-child.js";
import { writeTree } from "../../src/scale/file-tree.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { applyPlan } from "../../src/scale/plan/apply.js";
import type { Proposer } from "../../src/scale/plan/proposer.js";
import type { Plan } from "../../src/scale/plan/schema.js";
import { SeededProposer } from "../../src/scale/plan/seeded-proposer.js";
import { registerTransform } from "../../src/scale/transforms/registry.js";
import type { DiagnosticCode, Verdict } from "../../src/scale/verify/diagnostics.js";
import { verifyChild } from "../../src/scale/verify/verify-child.js";
import { tempDir } from "../runner/helpers.js";
import { BROKEN_TOYS, GOOD_TOYS, toyLenient } from "./support/toy-transforms.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");
const provider = getSandboxProvider("bwrap");
const ORDERS = "data/orders.csv";

function plan(...steps: [string, string][]): Plan {
  return {
    proposer: "test",
    library: "full",
    seed: 1,
    steps: steps.map(([transform, target], i) => ({
      transform,
      targets: [target],
      params: {},
      seed: 11 + i,
    })),
  };
}

let parent: ParentInfo;
const out = tempDir("res-mutations");

/** A candidate child of ledger-report built by the real pipeline from `p`, in its own folder. */
function candidate(id: string, p: Plan): string {
  const dir = join(out, id);
  const applied = applyPlan(parent.tree.tree, p);
  const meta = { id, depth: 1, mode: "recursive" as const, branch: 1, attempt: 0, childDir: dir };
  writeTree(dir, buildChildFiles(parent, p, applied, meta).files);
  return dir;
}

function codes(v: Verdict): DiagnosticCode[] {
  return [...new Set(v.diagnostics.map((d) => d.code))];
}

beforeAll(async () => {
  for (const t of [...GOOD_TOYS, ...BROKEN_TOYS, toyLenient]) registerTransform(t);
  parent = await loadParent(LEDGER);
});

describe("the verifier rejects broken candidates with the diagnostic that names the defect", () => {
  it("accepts a sound candidate (gzip, then move what gzip produced)", async () => {
    const dir = candidate("sound", plan(["toy-gzip", ORDERS], ["toy-move", `${ORDERS}.gz`]));
    const v = await verifyChild(dir, { provider, trials: false });
    expect(v.diagnostics).toEqual([]);
  });

  it("missing record: a restored file lost a row", async () => {
    const v = await verifyChild(candidate("lossy", plan(["toy-lossy", ORDERS])), { provider, trials: false });
    expect(codes(v)).toEqual(["missing-record"]);
    expect(v.diagnostics[0]?.message).toMatch(/data\/orders\.csv came back without 1 original record/);
  });

  it("wrong reference: a restore step points at a path that does not exist", async () => {
    const v = await verifyChild(candidate("badref", plan(["toy-badref", ORDERS])), {
      provider,
      trials: false,
    });
    expect(codes(v)).toEqual(["wrong-reference"]);
    expect(v.diagnostics[0]?.step).toBe("d1.1");
    expect(v.diagnostics[0]?.message).toMatch(/data\/orders\.csv\.gzip does not exist/);
  });

  it("unsatisfied prerequisite: restore steps in the wrong order", async () => {
    const v = await verifyChild(candidate("swapped", plan(["toy-swapped", ORDERS])), {
      provider,
      trials: false,
    });
    expect(codes(v)).toEqual(["unsatisfied-prerequisite"]);
    expect(v.diagnostics[0]?.message).toMatch(/needs data\/orders\.csv\.gz, which only a later step creates/);
  });

  it("changed test: a tests/ file was edited", async () => {
    const dir = candidate("edited-test", plan(["toy-gzip", ORDERS]));
    appendFileSync(join(dir, "tests/check_report.py"), "# edited\n");
    const v = await verifyChild(dir, { provider, trials: false });
    expect(codes(v)).toEqual(["test-changed"]);
    expect(v.diagnostics[0]?.message).toMatch(/check_report\.py/);
  });

  it("changed task.toml: the verifier's environment, limits or network were edited", async () => {
    const dir = candidate("edited-toml", plan(["toy-gzip", ORDERS]));
    appendFileSync(join(dir, "task.toml"), '\n[verifier.env]\nLONGHAUL_WORKDIR = "/tmp/elsewhere"\n');
    const v = await verifyChild(dir, { provider, trials: false });
    expect(codes(v)).toEqual(["non-reproducible"]);
    expect(v.diagnostics[0]?.message).toMatch(/task\.toml/);
  });

  it("leaked fact: the access text shows a protected value", async () => {
    const v = await verifyChild(candidate("leaky", plan(["toy-leaky", ORDERS])), { provider, trials: false });
    expect(codes(v)).toEqual(["leaked-fact"]);
    expect(v.diagnostics.map((d) => d.step)).toContain("d1.1");
  });

  it("non-reproducible step: the candidate differs from the re-applied plan", async () => {
    const v = await verifyChild(candidate("impure", plan(["toy-impure", ORDERS])), {
      provider,
      trials: false,
    });
    expect(codes(v)).toEqual(["non-reproducible"]);
    expect(v.diagnostics[0]?.message).toMatch(/NOTE\.txt/);
  });

  it("changed goal and protected snapshot: the instruction's task text or a kept original was edited", async () => {
    const dir = candidate("edited-goal", plan(["toy-gzip", ORDERS]));
    const file = join(dir, "instruction.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("rounded to 2", "rounded to 3"));
    appendFileSync(join(dir, "tests/res/snapshot/data/refunds.jsonl"), '{"order": 1001, "amount": 1}\n');
    const v = await verifyChild(dir, { provider, trials: false });
    expect(codes(v)).toEqual(expect.arrayContaining(["goal-changed", "fact-changed", "test-changed"]));
  });

  it("runs a restore step as sh does: only the step's own exit status counts (real trials)", async () => {
    const v = await verifyChild(candidate("lenient", plan(["toy-lenient", ORDERS])), { provider });
    expect(v.diagnostics).toEqual([]);
    expect(v.checks.map((c) => c.status)).toEqual(["pass", "pass", "pass", "pass", "pass"]);
  });

  it("no change: with real trials, the parent's oracle alone still passes in the child", async () => {
    const v = await verifyChild(candidate("noop", plan(["toy-noop", ORDERS])), { provider });
    expect(codes(v)).toEqual(["no-change"]);
    expect(v.checks.find((c) => c.name === "oracle")?.detail).toMatch(/child oracle R = 1/);
  });
});

describe("the repair loop", () => {
  /** Proposes a broken plan first; repairs with the seeded planner over the good transforms only. */
  const firstBroken = (broken: string): Proposer => ({
    name: "first-broken",
    propose: (r) => ({ ...plan([broken, ORDERS]), seed: r.seed }),
    repair: (r) =>
      new SeededProposer().repair({
        ...r,
        transforms: r.transforms.filter((t) => t.name.match(/^toy-(gzip|move)$/)),
      }),
  });

  it("repairs a rejected candidate into an approved child", async () => {
    const res = await scaleTask({
      taskDir: LEDGER,
      outDir: join(out, "repaired"),
      depth: 1,
      children: 1,
      library: "full",
      mode: "recursive",
      seed: 3,
      provider,
      trials: false,
      proposer: firstBroken("toy-badref"),
    });
    const child = res.nodes[1];
    expect([child?.status, child?.attempts]).toEqual(["approved", 2]);
    expect(child?.rejections.map((r) => [r.attempt, r.plan, r.diagnostics[0]?.code])).toEqual([
      [1, "toy-badref(data/orders.csv)", "wrong-reference"],
    ]);
  });

  it("repairs a candidate that changed nothing real (no-change, found by real oracle trials)", async () => {
    const res = await scaleTask({
      taskDir: LEDGER,
      outDir: join(out, "no-change-repaired"),
      depth: 1,
      children: 1,
      library: "full",
      mode: "recursive",
      seed: 3,
      provider,
      trials: true,
      proposer: firstBroken("toy-noop"),
    });
    const child = res.nodes[1];
    expect([child?.status, child?.attempts]).toEqual(["approved", 2]);
    expect(child?.rejections.map((r) => [r.attempt, r.plan, r.diagnostics.map((d) => d.code)])).toEqual([
      [1, "toy-noop(data/orders.csv)", ["no-change"]],
    ]);
    expect(child?.checks.find((c) => c.name === "oracle")?.status).toBe("pass");
  });

  it("rejects a malformed proposal as plan-invalid and asks for a fresh one", async () => {
    let calls = 0;
    const sloppy: Proposer = {
      name: "sloppy",
      propose: () => {
        calls += 1;
        return calls === 1 ? ({ steps: "nope" } as unknown as Plan) : plan(["toy-gzip", ORDERS]);
      },
      repair: () => null,
    };
    const res = await scaleTask({
      taskDir: LEDGER,
      outDir: join(out, "sloppy"),
      depth: 1,
      children: 1,
      library: "full",
      mode: "recursive",
      seed: 3,
      provider,
      trials: false,
      proposer: sloppy,
    });
    const child = res.nodes[1];
    expect([child?.status, child?.attempts, child?.rejections[0]?.diagnostics[0]?.code]).toEqual([
      "approved",
      2,
      "plan-invalid",
    ]);
  });

  it("discards a candidate that stays broken after the repairs, and keeps the parent", async () => {
    const alwaysBroken: Proposer = {
      name: "broken",
      propose: () => plan(["toy-lossy", ORDERS]),
      repair: () => plan(["toy-lossy", ORDERS]),
    };
    const res = await scaleTask({
      taskDir: LEDGER,
      outDir: join(out, "discarded"),
      depth: 2,
      children: 1,
      library: "full",
      mode: "recursive",
      seed: 3,
      provider,
      trials: false,
      repairs: 2,
      proposer: alwaysBroken,
    });
    expect(res.nodes.map((n) => [n.id, n.status, n.attempts])).toEqual([
      ["ledger-report", "root", 0],
      ["ledger-report-b1-d1", "discarded", 3],
    ]);
    expect(res.nodes[1]?.diagnostics.map((d) => d.code)).toEqual(["missing-record"]);
  });
});
