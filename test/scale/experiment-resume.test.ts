import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { readLineage } from "../../src/scale/lineage/store.js";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";
import { spawnScale, waitFor } from "./support/spawn-scale.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

/** The finished trials of a job folder, each with its result.json as written. */
function finished(jobDir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(jobDir)) return out;
  for (const e of readdirSync(jobDir, { withFileTypes: true })) {
    const file = join(jobDir, e.name, "result.json");
    if (e.isDirectory() && existsSync(file)) out.set(e.name, readFileSync(file, "utf8"));
  }
  return out;
}

describe("scale experiment: an interrupted experiment goes on without redoing work", () => {
  it("scale experiment goes on with a lineage that is shallower than the depths asked for", async () => {
    const base = tempDir("res-resume-exp");
    const out = join(base, "exp");
    const run = (depths: string) =>
      cli([
        "scale",
        "experiment",
        LEDGER,
        "--agent",
        "nop",
        "--depths",
        depths,
        "--seed",
        "3",
        "--no-trials",
        "--out",
        out,
        "--jobs-dir",
        join(base, "jobs"),
      ]);
    const first = await run("0,1");
    expect(first.code, first.stderr).toBe(0);
    const dir = join(out, "lineages", "ledger-report", "full");
    const d1 = readLineage(dir).find((n) => n.depth === 1);
    const second = await run("0,1,2");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/ledger-report full: going on with the lineage in .* to depth 2/);
    const exp = JSON.parse(readFileSync(join(out, "experiment.json"), "utf8"));
    expect(exp.lineages[0].built).toBe(true);
    expect(exp.lineages[0].children.map((c: { id: string }) => c.id)).toEqual([
      "ledger-report-full-b1-d1",
      "ledger-report-full-b1-d2",
    ]);
    // The depth-1 child is the one the first run evaluated.
    expect(readLineage(dir).find((n) => n.depth === 1)).toEqual(d1);
    const third = await run("0,1,2");
    expect(third.stderr).toMatch(/ledger-report full: reusing the lineage/);
  }, 120_000);

  it("scale experiment stopped while building lineages exits 130, and the same command goes on", async () => {
    const base = tempDir("res-resume-exp-stop");
    const out = join(base, "exp");
    const args = ["experiment", LEDGER, "--agent", "nop", "--depths", "0,3", "--seed", "3", "--no-trials"];
    const all = [...args, "--out", out, "--jobs-dir", join(base, "jobs")];
    const { child, stderr, exit } = spawnScale(all);
    await waitFor(() => stderr().includes("-b1-d2 attempt 1:"), 60_000);
    child.kill("SIGTERM");
    expect(await exit).toBe(130);
    expect(stderr()).toMatch(/the same command goes on with them/);
    expect(stderr()).not.toMatch(/longhaul: .*error/);
    const again = await cli(["scale", ...all]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/going on with the lineage/);
    expect(again.stderr).toMatch(/chain 1: resuming at depth [23]/);
  }, 120_000);

  it("--resume --job continues the job: trials finished before the stop are kept, the rest run", async () => {
    const base = tempDir("res-exp-resume-job");
    const jobs = join(base, "jobs");
    const args = [
      "experiment",
      LEDGER,
      "--agent",
      "shell",
      "--agent-opt",
      "cmd=sleep 0.3",
      "--depths",
      "0,1,2",
      "--attempts",
      "2",
      "--seed",
      "3",
      "--no-trials",
      "--out",
      join(base, "exp"),
      "--jobs-dir",
      jobs,
      "--job",
      "expj",
    ];
    const { child, stderr, exit } = spawnScale(args);
    const jobDir = join(jobs, "expj");
    await waitFor(() => finished(jobDir).size >= 2, 90_000);
    child.kill("SIGTERM");
    expect(await exit).toBe(130);
    expect(stderr()).toContain(`continue with the same command and --resume --job expj --jobs-dir ${jobs}`);
    const before = finished(jobDir);
    expect(before.size).toBeGreaterThanOrEqual(2);
    expect(before.size).toBeLessThan(6);

    // Without --resume the job is not overwritten; with options that change its trials, refused.
    const plain = await cli(["scale", ...args]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/job expj already exists .* use --resume to continue it/);
    const attempts = await cli(["scale", ...args.map((a) => (a === "2" ? "3" : a)), "--resume"]);
    expect(attempts.code).toBe(2);
    expect(attempts.stderr).toMatch(
      /config\.json: field "attempts": job expj was started with 2, this experiment asks for 3/,
    );
    const depths = await cli(["scale", ...args.map((a) => (a === "0,1,2" ? "0,1" : a)), "--resume"]);
    expect(depths.code).toBe(2);
    expect(depths.stderr).toMatch(
      /field "tasks": job expj holds other tasks than this experiment \(first difference: ledger-report-full-b1-d2\)/,
    );
    const noJob = await cli(["scale", ...args.slice(0, -2), "--resume"]);
    expect(noJob.code).toBe(2);
    expect(noJob.stderr).toMatch(/--resume needs --job NAME/);
    expect(finished(jobDir)).toEqual(before);

    const again = await cli(["scale", ...args, "--resume"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/job: 6 trials \(\d already done\)/);
    const after = finished(jobDir);
    expect(after.size).toBe(6);
    // Not run again: the trials finished before the stop are byte for byte as they were.
    for (const [trial, text] of before) expect(after.get(trial)).toBe(text);
    const exp = JSON.parse(readFileSync(join(base, "exp", "experiment.json"), "utf8"));
    expect(exp.trials).toHaveLength(6);
    expect(exp.cells.map((c: { depth: number; n: number }) => [c.depth, c.n])).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    expect(readLineage(join(base, "exp", "lineages", "ledger-report", "full")).length).toBe(3);
  }, 180_000);
});
