import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { runCli as cli } from "../support/cli-process.js";

describe("run on a dataset with a broken task", () => {
  it("runs the others, lists the skipped task with its reason, prints each warning once, and exits 4", async () => {
    const ds = tempDir("robust");
    cpSync(join(FIXTURES, "trivial"), join(ds, "good"), { recursive: true });
    const goodToml = join(ds, "good", "task.toml");
    writeFileSync(goodToml, `${readFileSync(goodToml, "utf8")}\n[environment.extra]\nx = 1\n`);
    cpSync(join(FIXTURES, "trivial"), join(ds, "windows"), { recursive: true });
    writeFileSync(join(ds, "windows", "task.toml"), '[environment]\nos = "windows"\n');
    const jobs = tempDir("robust-jobs");

    const r = await cli(["run", ds, "--agent", "oracle", "--jobs-dir", jobs, "--job", "j", "--json"]);
    expect(r.code).toBe(4);
    const out = JSON.parse(r.stdout) as {
      trials: { task: string; outcome: string }[];
      skipped_tasks: { path: string; reason: string }[];
    };
    expect(out.trials.map((t) => [t.task, t.outcome])).toEqual([["good", "completed"]]);
    expect(out.skipped_tasks).toEqual([
      {
        path: join(ds, "windows"),
        reason: `${join(ds, "windows", "task.toml")}:2: [environment] os = "windows": longhaul runs Linux sandboxes only`,
      },
    ]);
    const summary = JSON.parse(readFileSync(join(jobs, "j", "result.json"), "utf8"));
    expect(summary.skipped_tasks).toEqual(out.skipped_tasks);
    // The unknown key is a warning naming file and key, printed once (the task is loaded twice).
    const warning = `warning: ${goodToml}:`;
    expect(r.stderr.split(warning).length - 1).toBe(1);
    expect(r.stderr).toContain("[environment] extra is not a Harbor task.toml field; ignored");
    expect(r.stderr).toContain(`skipped task ${join(ds, "windows")}:`);
  }, 120_000);

  it("a single broken task is still a usage error naming file, line and field (exit 2)", async () => {
    const ds = tempDir("robust-one");
    cpSync(join(FIXTURES, "trivial"), join(ds, "gpu"), { recursive: true });
    writeFileSync(join(ds, "gpu", "task.toml"), "[environment]\ngpus = 1\n");
    const r = await cli(["run", join(ds, "gpu"), "--agent", "oracle", "--jobs-dir", tempDir("robust-jobs")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${join(ds, "gpu", "task.toml")}:2: [environment] gpus = 1: longhaul's sandboxes have no GPUs`,
    );
  }, 60_000);
});
