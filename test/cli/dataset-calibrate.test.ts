import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { JobStore } from "../../src/store/index.js";
import { calibrationAttempts, EXPECTED_RANKING } from "../analysis/calibration-fixture.js";
import { tempDir } from "../runner/helpers.js";
import { runCli as cli } from "../support/cli-process.js";
import { storedJobConfig, storedTask, storedTrial } from "../support/stored-trials.js";

interface CalibrationJson {
  tasks: { task: string; infraExcluded: number }[];
  proposed: string[];
  infraExcluded: number;
  target: { picked: string[] } | null;
}

/** The synthetic attempts recorded through the store: models m1 and m2 in job "early", m3 in "late". */
async function writeJobs(jobsDir: string): Promise<void> {
  const store = await JobStore.open(jobsDir);
  try {
    const attempts = calibrationAttempts();
    for (const [job, models] of [
      ["early", ["m1", "m2"]],
      ["late", ["m3"]],
    ] as const) {
      await store.createJob(
        storedJobConfig({ job_id: job, agents: ["h"], models: [...models], attempts: 3 }),
      );
      for (const a of attempts.filter((x) => (models as readonly string[]).includes(x.model))) {
        await store.recordTrial(
          storedTrial({
            job_id: job,
            trial_id: `${a.task}__h__${a.model}__a${a.attempt}`,
            task: storedTask(a.task, a.category),
            agent: "h",
            model: a.model,
            attempt: a.attempt,
            reward: a.reward,
            outcome: a.outcome,
          }),
        );
      }
    }
  } finally {
    await store.close();
  }
}

describe("longhaul dataset calibrate", () => {
  let jobsDir = "";
  beforeAll(async () => {
    jobsDir = tempDir("calibrate");
    await writeJobs(jobsDir);
  });

  it("reads every job of --jobs-dir by default and ranks the tasks as the analysis does", async () => {
    const r = await cli(["dataset", "calibrate", "--jobs-dir", jobsDir, "--format", "json", "--target", "3"]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout) as CalibrationJson;
    expect(c.tasks.map((t) => t.task)).toEqual(EXPECTED_RANKING);
    expect(c.proposed).toEqual(["t04", "t06", "t05", "t07", "t08"]);
    expect(c.infraExcluded).toBe(2);
    expect(c.target?.picked).toEqual(["t06", "t07", "t08"]);
    // Progress on stderr, one line per job read.
    expect(r.stderr).toMatch(/^early: \d+ trial\(s\)$/m);
    expect(r.stderr).toMatch(/^late: \d+ trial\(s\)$/m);
  });

  it("takes job ids or job folders, a band, and writes a self-contained HTML page with --out", async () => {
    const out = join(tempDir("calibrate-out"), "calibration.html");
    const r = await cli([
      "dataset",
      "calibrate",
      "early",
      join(jobsDir, "late"),
      "--jobs-dir",
      jobsDir,
      "--band",
      "0.3,0.5",
      "--format",
      "html",
      "--out",
      out,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`wrote ${out}`);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("band: solve rate in (0.3, 0.5]; 3 task(s) proposed");
    expect(html).toContain('<svg id="chart-calibration"');
    expect(html).not.toMatch(/\b(src|href)=/);
  });

  it("one job alone sees only its models", async () => {
    const r = await cli(["dataset", "calibrate", "late", "--jobs-dir", jobsDir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("1 agent × model pair(s)");
    // m3 passes t02, t03, t04 and t06 once in three attempts each: all at 1/3, tied, ordered by name.
    expect(r.stdout).toContain("proposed (4): t02, t03, t04, t06");
  });

  it("rejects a bad band, format or job with exit 2 and one line", async () => {
    const cases: [string[], RegExp][] = [
      [["--band", "0.6,0.2"], /--band needs 0 ≤ LOW < HIGH ≤ 1 .*got "0\.6,0\.2"/],
      [["--band", "half"], /--band expects LOW,HIGH/],
      [["--format", "pdf"], /--format must be one of table, json, md, html/],
      [["--target", "0"], /--target must be a positive integer/],
      [["nosuch"], /no job named nosuch in /],
      [[join(tempDir("calibrate-none"), "nope")], /nope: not a job folder \(no config\.json in it\)/],
      // Refused before any job is read (no "early: N trial(s)" line), not a stack trace after.
      [["--out", join(tempDir("calibrate-gone"), "no-dir", "c.md")], /c\.md: cannot write \(no such folder /],
      [["--out", tempDir("calibrate-dir")], /cannot write \(it is a folder\)/],
    ];
    // Started together: each is a process, and process start-up dominates.
    const results = await Promise.all(
      cases.map(([args]) => cli(["dataset", "calibrate", ...args, "--jobs-dir", jobsDir])),
    );
    results.forEach((r, i) => {
      const [args, message] = cases[i] as [string[], RegExp];
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    });
    const empty = tempDir("calibrate-empty");
    const none = await cli(["dataset", "calibrate", "--jobs-dir", join(empty, "missing")]);
    expect(none.code).toBe(2);
    expect(existsSync(join(empty, "missing"))).toBe(false);
  });
});
