import { describe, expect, it } from "vitest";
import { compareJobs } from "../analysis/compare.js";
import { readCsv } from "../analysis/csv-reader.js";
import { parseExternalResults } from "../analysis/external-results.js";
import { summaryFromPublished } from "../analysis/published.js";
import { referenceAgreement } from "../analysis/rank-agreement.js";
import { summarize } from "../analysis/summarize.js";
import { makeTrial as t } from "../analysis/test-trial.js";
import { renderComparisonTable } from "./render-comparison.js";
import { CSV_HEADER, renderCsv } from "./render-csv.js";
import { renderHtml } from "./render-html.js";
import { renderJson } from "./render-json.js";
import { renderMarkdown } from "./render-markdown.js";
import { renderTable } from "./render-table.js";

const REASON = "reward-details.json: subtask hidden_cases has weight 0";
const trials = [
  t({ model: "A", task: "t1", reward: 0.9, self: true, budgetLeft: 1200, cost: 1, tokens: 10 }),
  t({ model: "A", task: "t2", reward: 0.5, self: true, budgetLeft: 300, cost: 1, tokens: 10 }),
  t({
    model: "A",
    task: "t3",
    reward: null,
    outcome: "grading_error",
    gradingErrors: [REASON],
    cost: 1,
    tokens: 10,
  }),
  t({ model: "U", task: "t1", reward: 1, cost: 0, tokens: 50, costKnown: false }),
  t({ model: "U", task: "t2", reward: 0.2, cost: 0, tokens: 50, costKnown: false }),
];
const summary = summarize(trials, { seed: 5, bootstrapSamples: 200 });

describe("report output for LHTB metrics", () => {
  const text = renderTable(summary);
  const md = renderMarkdown(summary);
  const html = renderHtml(summary);

  it("shows the grading error count and its first reason in every format", () => {
    for (const out of [text, md, html]) {
      expect(out).toContain("Grading errors (counted as R = 0)");
      expect(out).toContain(REASON);
    }
    const json = JSON.parse(renderJson(summary)) as typeof summary;
    expect(json.groups[0]?.gradingErrors).toEqual({ count: 1, firstReason: REASON, firstTask: "t3" });
    const [header, ...rows] = readCsv(renderCsv(summary), "r.csv");
    const col = header?.fields.findIndex((f) => f.value === "grading_error_first_reason") ?? -1;
    expect(rows.find((r) => r.fields[1]?.value === "h / A")?.fields[col]?.value).toBe(REASON);
    expect(text).toContain("grading_error trial counts as not passing and as R = 0 in mean R");
  });

  it("separates false finishes from early stops and shows the budget left", () => {
    // A: self-terminated at 0.9 (false finish, 20 min left) and 0.5 (stopped early only).
    expect(text).toContain("false finish 0.75≤R<0.95");
    expect(text).toMatch(/h \/ A\s+2\s+1\/2 \(50\.0%\)\s+2\/2 \(100\.0%\)\s+20\.0 min\s+20\.0 min\s+1/);
    expect(renderCsv(summary).split("\r\n")[0]).toContain("false_finish_budget_left_mean_sec");
    expect(CSV_HEADER).toContain("stopped_early_k");
  });

  it("prints unknown, not $0.00, for an unpriced model and keeps it off the frontier", () => {
    const row = text.split("\n").find((l) => l.startsWith("h / U ")) ?? "";
    expect(row).toContain("unknown");
    expect(row).not.toContain("$0.00");
    expect(summary.frontier).toEqual(["h / A"]);
    expect(text).toContain("cost unknown (model has no price; kept off the frontier): h / U");
  });

  it("states ρ and τ-b at both thresholds with the seed", () => {
    expect(text).toContain("Pass@1 R≥0.95 vs mean R across 2 groups: ρ =");
    expect(text).toContain("Pass@1 R=1 vs mean R across 2 groups: ρ =");
    expect(text).toContain("τ-b =");
  });
});

describe("published tables", () => {
  const csv = [
    "model,pass_at_r095_pct,pass_at_r100_pct,mean_reward,tasks",
    "Model A,28.3,19.6,0.51,46",
    "Model B,5.0,0.0,0.27,46",
    "Model C,0.0,0.0,0.10,46",
  ].join("\n");
  const parsed = parseExternalResults(csv, "paper.csv");
  if (parsed.kind !== "summary") throw new Error("expected summary rows");
  const pub = summaryFromPublished(parsed.rows, { seed: 9 });

  it("states the recovered k/n and flags a rate no count reproduces", () => {
    const text = renderTable(pub);
    expect(text).toContain("28.3% = 13/46");
    expect(text).toContain("19.6% = 9/46");
    expect(text).toContain("5.0% ≠ any k/46 (nearest 2/46 = 4.35%)");
    expect(text).toContain(
      "NOT REPRODUCIBLE: no whole count over n gives the printed rate for external / Model B",
    );
  });

  it("renders rank agreement against a reference with ρ, τ and intervals", () => {
    const local = summarize(
      [
        ...[0.9, 0.6, 0.5].map((r) => t({ model: "model-a", reward: r })),
        ...[0.5, 0.3, 0.1].map((r) => t({ model: "model-b", reward: r })),
        ...[0.1, 0.0, 0.0].map((r) => t({ model: "model-c", reward: r })),
      ],
      { groupBy: ["model"], bootstrapSamples: 0 },
    );
    const withRef = {
      ...local,
      references: [
        {
          reference: "paper.csv",
          comparisons: referenceAgreement(local.groups, pub.groups, { seed: 9, samples: 0, label: "p" }),
        },
      ],
    };
    const md = renderMarkdown(withRef);
    expect(md).toContain("## Rank agreement with paper.csv");
    expect(md).toMatch(/\| mean R \| 3 \| 1\.00 \| 1\.00 \|/);
  });
});

describe("comparison output", () => {
  it("warns about hidden-case mismatches and shows rank agreement", () => {
    const c = compareJobs(
      [t({ task: "a", reward: 0.2, seed: 1 }), t({ task: "b", reward: 0.5, seed: 2 })],
      [t({ task: "a", reward: 0.6, seed: 1 }), t({ task: "b", reward: 0.5, seed: 3 })],
      { seed: 4 },
    );
    const text = renderComparisonTable(c);
    expect(text).toContain(
      "WARNING: 1 (task, attempt) pair(s) were graded on different hidden cases: b (attempt 0: seed 2 vs 3)",
    );
    expect(text).toContain("rank agreement of groups by mean R:");
  });
});

describe("continue-until-timeout in the report", () => {
  it("shows R at the first claimed completion beside R at the deadline, only for jobs that used the mode", () => {
    const withMode = [
      { ...t({ reward: 1, self: true }), continuation: cont(2, 1, 0.8) },
      { ...t({ reward: 0.4, outcome: "agent_timeout" }), continuation: cont(1, 1, 0.1) },
    ];
    const text = renderMarkdown(summarize(withMode, { seed: 1 }));
    expect(text).toContain("Continue-until-timeout");
    expect(text).toMatch(/\| h m \| 2 \| 2 \| 3 \| 2 \| 2 \| 0\.450 \| 0\.700 \| 0\/2 → 1\/2 \| 1 \| 1 \|/);
    expect(renderMarkdown(summarize([t({ reward: 1 })], { seed: 1 }))).not.toContain(
      "Continue-until-timeout",
    );
  });
});

function cont(stops: number, back: number, first: number) {
  return { self_terminations: stops, reentries: back, first_stop_sec: 5, reward_at_first_stop: first };
}
