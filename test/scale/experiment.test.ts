import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { registerReportCommand } from "../../src/cli/commands/report.js";
import { type Experiment, experimentSchema } from "../../src/scale/experiment/experiment-schema.js";
import { cells } from "../../src/scale/experiment/run-experiment.js";
import { parseAblations, parseDepths } from "../../src/scale/experiment/variants.js";
import { JobStore } from "../../src/store/index.js";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

describe("scale experiment on ledger-report: oracle and nop at depths 0, 1, 2, two variants", () => {
  const base = tempDir("res-experiment");
  const out = join(base, "exp");
  const jobs = join(base, "jobs");
  const runs: Record<
    string,
    { code: number; stdout: string; stderr: string; exp: Experiment; html: string }
  > = {};

  beforeAll(async () => {
    for (const agent of ["oracle", "nop"]) {
      // The second run reuses the lineages the first built in --out.
      const r = await cli([
        "scale",
        "experiment",
        LEDGER,
        "--agent",
        agent,
        "--depths",
        "0,1,2",
        "--ablations",
        "basic",
        "--seed",
        "3",
        "--no-trials",
        "--out",
        out,
        "--jobs-dir",
        jobs,
        "--job",
        `exp-${agent}`,
        "-n",
        "2",
      ]);
      const exp = experimentSchema.parse(JSON.parse(readFileSync(join(out, "experiment.json"), "utf8")));
      const html = readFileSync(join(out, "experiment.html"), "utf8");
      runs[agent] = { ...r, exp, html };
    }
  }, 120_000);

  it("scores the oracle 1.0 and nop 0 at every depth of both variants", () => {
    for (const [agent, want] of [
      ["oracle", 1],
      ["nop", 0],
    ] as const) {
      const run = runs[agent];
      expect(run?.code, run?.stderr).toBe(0);
      const got = (run?.exp.cells ?? []).map((c) => [c.variant, c.depth, c.n, c.success_rate]);
      expect(got).toEqual([
        ["full", 0, 1, want],
        ["full", 1, 1, want],
        ["full", 2, 1, want],
        ["basic", 0, 1, want],
        ["basic", 1, 1, want],
        ["basic", 2, 1, want],
      ]);
      for (const c of run?.exp.cells ?? []) expect(c.mean_reward).toBe(want);
    }
  });

  it("builds each variant's lineage once, with ids kept apart, and reuses it", () => {
    const first = runs.oracle?.exp.lineages ?? [];
    expect(first.map((l) => [l.variant, l.built, l.children.map((c) => c.id)])).toEqual([
      ["full", true, ["ledger-report-full-b1-d1", "ledger-report-full-b1-d2"]],
      ["basic", true, ["ledger-report-basic-b1-d1", "ledger-report-basic-b1-d2"]],
    ]);
    expect(runs.nop?.exp.lineages.map((l) => l.built)).toEqual([false, false]);
    expect(runs.nop?.stderr).toMatch(/reusing the lineage/);
    // -n 2: the two lineages were built side by side (the second started before the first's first child was decided).
    const log = runs.oracle?.stderr ?? "";
    expect(log.indexOf("ledger-report basic: building")).toBeGreaterThan(-1);
    expect(log.indexOf("ledger-report basic: building")).toBeLessThan(
      log.indexOf("ledger-report-full-b1-d1: approved"),
    );
    // The root ran once per attempt and counts for both variants at depth 0.
    const roots = runs.oracle?.exp.trials.filter((t) => t.depth === 0) ?? [];
    expect(roots.map((t) => [t.node, t.variants])).toEqual([["ledger-report", ["full", "basic"]]]);
  });

  it("prints the table on stdout and progress on stderr", () => {
    const lines = runs.oracle?.stdout.trim().split("\n") ?? [];
    expect(lines[0]).toMatch(/^variant\s+depth\s+n\s+success\s+mean R\s+turns\s+tool calls/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 5))).toContainEqual([
      "basic",
      "2",
      "1",
      "1.00",
      "1.000",
    ]);
    expect(runs.oracle?.stderr).toMatch(/building recursive depth 2/);
    // turns come from the agent's usage when it writes no trajectory (the oracle: one script run).
    expect(runs.oracle?.exp.cells.every((c) => c.mean_turns === 1 && c.mean_tool_calls === null)).toBe(true);
  });

  it("stores the trials as a normal job", async () => {
    const store = await JobStore.open(jobs);
    try {
      const trials = await store.listTrials("exp-nop");
      expect(trials.map((t) => t.task.name).sort()).toEqual([
        "ledger-report",
        "ledger-report-basic-b1-d1",
        "ledger-report-basic-b1-d2",
        "ledger-report-full-b1-d1",
        "ledger-report-full-b1-d2",
      ]);
      expect(trials.every((t) => t.agent === "nop")).toBe(true);
    } finally {
      await store.close();
    }
    const report = await cli(["report", "exp-oracle", "--jobs-dir", jobs, "--json"], registerReportCommand);
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ overall: { trials: 5 } });
  });

  it("writes a self-contained HTML chart", () => {
    const html = runs.oracle?.html ?? "";
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/<script[^>]*\ssrc=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html.match(/<svg class="chart"/g)).toHaveLength(2);
    expect(html).toMatch(/<polyline class="series" data-variant="full"/);
    expect(html).toMatch(/<polyline class="series" data-variant="basic"/);
    expect(html).toContain("success rate vs depth");
  });
});

describe("experiment arguments and metrics", () => {
  it("parses depths and ablations", () => {
    expect(parseDepths("2,0,1,2")).toEqual([0, 1, 2]);
    expect(() => parseDepths("0,11")).toThrow(/0 to 10/);
    expect(parseAblations("none")).toEqual(["full"]);
    expect(parseAblations("all")).toEqual(["full", "no-xref-prep", "basic", "independent"]);
    expect(parseAblations("independent,basic")).toEqual(["full", "basic", "independent"]);
    expect(() => parseAblations("xref")).toThrow(/unknown variant "xref"/);
  });

  it("computes success at the pass threshold, mean R with a failed grading as 0, and leaves infrastructure failures out", () => {
    const t = (
      reward: number | null,
      outcome: "completed" | "grading_error" | "infra_error",
      calls: number | null,
    ) => ({
      trial_id: `x${Math.random()}`,
      node: "c1",
      task: "t",
      depth: 1,
      variants: ["full" as const],
      attempt: 1,
      outcome,
      reward,
      passed: reward !== null && reward >= 0.95,
      turns: 4,
      tool_calls: calls,
      agent_sec: 1,
      input_tokens: 0,
      output_tokens: 0,
    });
    const trials = [
      t(0.96, "completed", 3),
      t(0.5, "completed", null),
      t(null, "grading_error", 5),
      t(1, "infra_error", 1),
    ];
    const planned = [{ task: "t", variant: "full" as const, depth: 1, id: "c1", dir: "/x" }];
    const [cell] = cells(["full"], [1, 2], ["t"], planned, trials);
    expect(cell).toMatchObject({
      n: 3,
      passes: 1,
      success_rate: 0.3333,
      mean_reward: 0.4867,
      mean_turns: 4,
      mean_tool_calls: 4,
    });
    const [, deeper] = cells(["full"], [1, 2], ["t"], planned, trials);
    expect(deeper).toMatchObject({ depth: 2, n: 0, success_rate: null, mean_reward: null, missing: ["t"] });
  });
});
