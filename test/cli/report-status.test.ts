import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readCsv } from "../../src/analysis/csv-reader.js";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { type CliProcess, runCli, startCli } from "../support/cli-process.js";

let runner: CliProcess | undefined;
afterEach(async () => {
  await runner?.kill9();
  runner = undefined;
});

interface ReportJson {
  jobs?: {
    id: string;
    status: string;
    planned: number;
    recorded: number;
    missing: number;
    resume: string | null;
  }[];
  overall: { trials: number };
}

describe("longhaul report says how the job stands", () => {
  it("a running job, then one whose runner was killed with kill -9: partial numbers, the missing trials and the resume command", async () => {
    const jobsDir = tempDir("report-status");
    // Two trials: the oracle's finishes at once, the shell agent's sleeps until the runner is killed.
    runner = startCli([
      "run",
      join(FIXTURES, "trivial"),
      "--agent",
      "oracle",
      "--agent",
      "shell",
      "--agent-opt",
      "cmd=sleep 120",
      "-n",
      "2",
      "--job",
      "killed",
      "--jobs-dir",
      jobsDir,
    ]);
    await runner.waitFor(/done {3}trivial__oracle__a1/, 60_000);
    await runner.waitFor(/start {2}trivial__shell__a1/, 60_000);

    const live = await runCli(["report", "killed", "--jobs-dir", jobsDir]);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toContain(
      "job killed: running: these numbers cover only the 1 of 2 planned trial(s) finished so far; 1 missing (report again when it ends)",
    );

    await runner.kill9();
    const resume = `longhaul run --resume --job killed --jobs-dir ${jobsDir}`;
    const table = await runCli(["report", "--jobs-dir", jobsDir]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split("\n")[0]).toBe(
      `job killed: interrupted: these numbers cover only the 1 of 2 planned trial(s) finished so far; 1 missing. Resume it with: ${resume}`,
    );
    expect(table.stdout).toContain("1 trials: 1 counted");

    const json = await runCli(["report", "killed", "--json", "--jobs-dir", jobsDir]);
    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout) as ReportJson;
    expect(parsed.jobs).toEqual([
      { id: "killed", status: "interrupted", planned: 2, recorded: 1, missing: 1, resume },
    ]);
    expect(json.stderr).toContain("WARNING: job killed: interrupted: these numbers cover only");

    const html = await runCli(["report", "killed", "--format", "html", "--jobs-dir", jobsDir]);
    expect(html.code, html.stderr).toBe(0);
    expect(html.stdout).toMatch(
      /<p class="job-status partial" data-status="interrupted">job killed: interrupted: [^<]*1 missing\. Resume it with: longhaul run --resume --job killed/,
    );
    const md = await runCli(["report", "killed", "--format", "md", "--jobs-dir", jobsDir]);
    expect(md.stdout).toContain("**job killed: interrupted: these numbers cover only the 1 of 2");

    // CSV: a row of its own per job (level "job"), with the same columns as every other row.
    const csv = await runCli(["report", "killed", "--format", "csv", "--jobs-dir", jobsDir]);
    expect(csv.code, csv.stderr).toBe(0);
    const [header, ...rows] = readCsv(csv.stdout, "report.csv").map((r) => r.fields.map((f) => f.value));
    for (const r of rows) expect(r).toHaveLength(header?.length ?? 0);
    const job = rows.find((r) => r[0] === "job");
    const at = (name: string) => job?.[header?.indexOf(name) ?? -1];
    expect([at("label"), at("job_status"), at("job_planned_trials"), at("job_recorded_trials")]).toEqual([
      "killed",
      "interrupted",
      "2",
      "1",
    ]);
    expect([at("job_missing_trials"), at("job_resume")]).toEqual(["1", resume]);
  }, 120_000);

  it("a finished job is reported finished, with every planned trial", async () => {
    const jobsDir = tempDir("report-finished");
    const run = await runCli([
      "run",
      join(FIXTURES, "trivial"),
      "--agent",
      "oracle",
      "--job",
      "whole",
      "--jobs-dir",
      jobsDir,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const table = await runCli(["report", "--jobs-dir", jobsDir]);
    expect(table.stdout.split("\n")[0]).toBe("job whole: finished, 1 of 1 planned trial(s) recorded");
    const json = await runCli(["report", "--json", "--jobs-dir", jobsDir]);
    expect((JSON.parse(json.stdout) as ReportJson).jobs).toEqual([
      { id: "whole", status: "finished", planned: 1, recorded: 1, missing: 0, resume: null },
    ]);
    expect(json.stderr).not.toContain("WARNING");
  }, 60_000);
});
