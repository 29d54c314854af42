import { describe, expect, it } from "vitest";
import { summarize } from "../../src/analysis/index.js";
import { renderCategoryTable } from "../../src/cli/results-table.js";
import type { TrialResult } from "../../src/core/index.js";
import { renderMarkdown } from "../../src/report/render-markdown.js";
import { storedTrial } from "../support/stored-trials.js";

function world(id: string, reward: number, success: boolean): TrialResult {
  return storedTrial({
    job_id: "j",
    trial_id: id,
    reward,
    world: { success, success_detail: "", rounds: 3, max_rounds: 10, agents: [], run_file: "world-run.json" },
  });
}

describe("a world trial passes by its success condition (SR), R being its PSR", () => {
  const trials = [
    world("a", 0.5, true), // success with half the checkpoints: a pass, not perfect
    world("b", 1, false), // every checkpoint but no success: neither
    world("c", 1, true), // both
    world("e", 0.2, true), // success with few checkpoints: still a pass
    storedTrial({ job_id: "j", trial_id: "d", reward: 0.96 }), // a terminal trial: R ≥ 0.95
  ];

  it("counts SR as Pass@1 and needs success for R = 1.0", () => {
    const s = summarize(trials, { bootstrapSamples: 0 });
    expect(s.overall.pass095).toMatchObject({ k: 4, n: 5 });
    expect(s.overall.pass100).toMatchObject({ k: 1, n: 5 });
  });

  it("the run table counts the same", () => {
    const row = renderCategoryTable(trials).split("\n").at(-1) ?? "";
    expect(row).toMatch(/\b4\/5\s+1\/5\b/);
  });

  it("the report says what Pass@1 and R mean for world trials, and only when there are some", () => {
    expect(renderMarkdown(summarize(trials, { bootstrapSamples: 0 }))).toContain(
      "world trials (4): Pass@1 is SR",
    );
    const terminalOnly = summarize(trials.slice(4), { bootstrapSamples: 0 });
    expect(terminalOnly.worldTrials).toBeUndefined();
    expect(renderMarkdown(terminalOnly)).not.toContain("world trials");
  });

  it("reports SR and PSR per attempt (seed) and their spread", () => {
    const at = (attempt: number, id: string, reward: number, success: boolean): TrialResult => ({
      ...world(id, reward, success),
      attempt,
      task: { ...world(id, reward, success).task, name: id.slice(0, 1) },
    });
    const runs = [
      at(1, "x1", 1, true),
      at(1, "y1", 0.5, false),
      at(2, "x2", 0.5, false),
      at(2, "y2", 0.25, false),
    ];
    const s = summarize(runs, { bootstrapSamples: 0 });
    expect(s.worldSeeds).toEqual([
      {
        label: "oracle",
        attempts: [
          { attempt: 1, tasks: 2, successes: 1, sr: 0.5, psr: 0.75 },
          { attempt: 2, tasks: 2, successes: 0, sr: 0, psr: 0.375 },
        ],
        srSpread: { range: 0.5, sd: Math.sqrt(0.125) },
        psrSpread: { range: 0.375, sd: Math.sqrt(((0.75 - 0.5625) ** 2 + (0.375 - 0.5625) ** 2) / 1) },
      },
    ]);
    const md = renderMarkdown(s);
    expect(md).toContain("SR and PSR per attempt");
    expect(md).toContain("1/2 · 0/2");
    expect(md).toContain("0.750 · 0.375");
  });

  it("keeps trials under different modifiers apart and names the modifiers in the report", () => {
    const under = (id: string, success: boolean, modifiers?: string[]): TrialResult => {
      const t = world(id, success ? 1 : 0.5, success);
      const w = t.world;
      if (w === null || w === undefined) throw new Error("a world trial");
      return { ...t, world: modifiers === undefined ? w : { ...w, modifiers } };
    };
    const s = summarize([under("p", true), under("q", false, ["no-comm"]), under("r", false, ["no-comm"])], {
      bootstrapSamples: 0,
    });
    expect(s.worldSeeds?.map((r) => [r.label, r.attempts[0]?.tasks, r.attempts[0]?.successes])).toEqual([
      ["oracle", 1, 1],
      ["oracle [no-comm]", 2, 0],
    ]);
    expect(renderMarkdown(s)).toContain("oracle [no-comm]");
  });
});
