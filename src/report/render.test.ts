import { describe, expect, it } from "vitest";
import { compareJobs } from "../analysis/compare.js";
import { readCsv } from "../analysis/csv-reader.js";
import { summarize } from "../analysis/summarize.js";
import { makeTrial as t } from "../analysis/test-trial.js";
import { chartData } from "./chart-data.js";
import { rate } from "./format.js";
import { renderComparisonCsv, renderComparisonTable } from "./render-comparison.js";
import { CSV_HEADER, renderCsv } from "./render-csv.js";
import { CHART_IDS, renderHtml } from "./render-html.js";
import { renderJson } from "./render-json.js";
import { renderMarkdown } from "./render-markdown.js";
import { renderTable } from "./render-table.js";

const trials = [
  t({ model: "A", task: "t1", reward: 1, self: true, cost: 2, subtasks: [{ id: "s", weight: 1, score: 1 }] }),
  t({ model: "A", task: "t2", category: "c2", reward: 0.8, self: true, cost: 2 }),
  t({ model: "A", task: "t2", category: "c2", reward: 0.4, outcome: "agent_timeout", cost: 2 }),
  t({ model: "A", task: "t1", reward: null, outcome: "grading_error" }),
  t({ model: "B|x", task: "t1", reward: 0.1, cost: 1 }),
  t({ model: "B|x", task: "t2", category: "c2", reward: 0.97, cost: 1 }),
];
const summary = summarize(trials, { seed: 3, bootstrapSamples: 200 });

describe("renderTable", () => {
  const text = renderTable(summary, { breakdowns: ["category"] });

  it("shows rates as k/n (p%) with the seed and exclusions", () => {
    // The grading_error counts in the denominator.
    expect(rate(summary.groups[0]?.pass095 ?? null)).toBe("1/4 (25.0%)");
    // Wilson interval of 1/4 in percent: 4.6–69.9.
    expect(text).toContain("1/4 (25.0%) [4.6–69.9]");
    expect(text).toContain("seed 3");
    expect(text).toContain("grading_error 1 counted as R = 0");
    expect(text).toContain("h / A · c2");
  });

  it("aligns columns: every row of the main table has the header's width", () => {
    const lines = text.split("\n");
    const start = lines.findIndex((l) => l.startsWith("Results by"));
    const block = lines.slice(start + 1, start + 6);
    const widths = new Set(block.map((l) => [...l].length));
    expect(widths.size).toBe(1);
  });
});

describe("renderMarkdown", () => {
  it("writes well-formed tables and escapes pipes in labels", () => {
    const md = renderMarkdown(summary, { title: "T" });
    expect(md.startsWith("# T\n")).toBe(true);
    expect(md).toContain("h / B\\|x");
    const table = md.split("\n").filter((l) => l.startsWith("| ") && l.includes("Pass@1 R≥0.95 [95% CI] |"));
    expect(table.length).toBeGreaterThan(0);
    const rows = md.split("\n").filter((l) => l.startsWith("| h / "));
    for (const r of rows) expect(r.endsWith(" |")).toBe(true);
  });
});

describe("renderCsv", () => {
  it("writes one parseable row per group and level", () => {
    const recs = readCsv(renderCsv(summary), "out.csv");
    const [header, ...rows] = recs;
    expect(header?.fields.map((f) => f.value)).toEqual([...CSV_HEADER]);
    for (const r of rows) expect(r.fields).toHaveLength(CSV_HEADER.length);
    const levels = rows.map((r) => r.fields[0]?.value);
    expect(levels.filter((l) => l === "group")).toHaveLength(2);
    expect(levels).toContain("subtask");
    const groupA = rows.find((r) => r.fields[1]?.value === "h / A");
    const col = (name: string) =>
      groupA?.fields[CSV_HEADER.indexOf(name as (typeof CSV_HEADER)[number])]?.value;
    expect([col("pass_095_k"), col("pass_095_n"), col("grading_error")]).toEqual(["1", "4", "1"]);
    expect(Number(col("mean_reward"))).toBeCloseTo((1 + 0.8 + 0.4 + 0) / 4, 12);
  });
  it("adds one row per job with its status, counts and resume command, keeping the file rectangular", () => {
    const withJobs = {
      ...summary,
      jobs: [
        { id: "a", status: "finished", planned: 4, recorded: 4, missing: 0, resume: null },
        {
          id: "b",
          status: "interrupted",
          planned: 3,
          recorded: 2,
          missing: 1,
          resume: "longhaul run --resume --job b --jobs-dir /j",
        },
      ],
    };
    const [header, ...rows] = readCsv(renderCsv(withJobs), "out.csv");
    expect(header?.fields.map((f) => f.value)).toEqual([...CSV_HEADER]);
    for (const r of rows) expect(r.fields).toHaveLength(CSV_HEADER.length);
    const cell = (r: (typeof rows)[number] | undefined, name: (typeof CSV_HEADER)[number]) =>
      r?.fields[CSV_HEADER.indexOf(name)]?.value;
    const jobs = rows.filter((r) => cell(r, "level") === "job");
    const shown = jobs.map((r) =>
      [
        "label",
        "job_status",
        "job_planned_trials",
        "job_recorded_trials",
        "job_missing_trials",
        "job_resume",
      ].map((c) => cell(r, c as (typeof CSV_HEADER)[number])),
    );
    expect(shown).toEqual([
      ["a", "finished", "4", "4", "0", ""],
      ["b", "interrupted", "3", "2", "1", "longhaul run --resume --job b --jobs-dir /j"],
    ]);
    // Metric columns are empty on a job row, and the metric rows come first, as before.
    expect(cell(jobs[0], "mean_reward")).toBe("");
    expect(rows.slice(0, -2).every((r) => cell(r, "level") !== "job")).toBe(true);
    expect(cell(rows[0], "job_status")).toBe("");
  });
});

describe("renderJson", () => {
  it("round-trips the summary", () => {
    expect(JSON.parse(renderJson(summary))).toEqual(JSON.parse(JSON.stringify(summary)));
  });
});

describe("chartData", () => {
  it("shapes rows for every chart", () => {
    const c = chartData(summary);
    expect(c.rewardDist.filter((r) => r.group === "h / A").reduce((s, r) => s + r.count, 0)).toBe(4);
    expect(c.passVsReward).toHaveLength(2);
    // B is cheaper (1.5 vs 1 per trial) and passes more (1/2 vs 1/4), so A is dominated.
    expect(c.costPass.map((p) => [p.group, p.frontier])).toEqual([
      ["h / A", false],
      ["h / B|x", true],
    ]);
    expect(c.categoryHeat).toHaveLength(4);
    expect(c.subtaskHeat).toEqual([{ group: "h / A", row: "t1 / s", score: 1, n: 1 }]);
    expect(c.outcomes.find((o) => o.group === "h / A" && o.outcome === "grading_error")?.count).toBe(1);
  });
});

describe("renderHtml", () => {
  it("is one self-contained file with every chart container and no external resources", () => {
    const html = renderHtml(summary);
    for (const id of CHART_IDS) expect(html).toContain(`id="${id}"`);
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html).toContain("Plot.plot(");
    expect(html.length).toBeGreaterThan(400_000);
  });

  it("cannot be broken out of by a hostile label", () => {
    const evil = summarize([t({ model: "</script><script>alert(1)</script>", reward: 0.5 })]);
    const html = renderHtml(evil);
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("&lt;/script&gt;");
  });
});

describe("comparison renderers", () => {
  it("show the paired difference and per-task rows", () => {
    const c = compareJobs(
      [t({ task: "a", reward: 0.2 }), t({ task: "b", reward: 0.5 })],
      [t({ task: "a", reward: 0.6 }), t({ task: "b", reward: 0.5 })],
      { seed: 4 },
    );
    const text = renderComparisonTable(c);
    expect(text).toContain("2 paired tasks");
    expect(text).toContain("Δ +0.200");
    expect(text).toMatch(/a\s+c1\s+1\s+1\s+0\.200\s+0\.600\s+\+0\.400/);
    expect(renderComparisonCsv(c).split("\r\n")[1]).toBe("a,c1,1,1,0.2,0.6,0.39999999999999997");
  });
});
