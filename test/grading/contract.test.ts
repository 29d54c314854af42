import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { FIXTURES, tempDir } from "../runner/helpers.js";

const exec = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");

describe("a verifier that breaks the reward contract", () => {
  it("makes the trial a grading_error with its reason in run's own output, never an agent score", async () => {
    const jobs = tempDir("contract");
    const r = await exec(
      process.execPath,
      [
        "dist/cli/main.js",
        "run",
        join(FIXTURES, "contract-breach"),
        "--agent",
        "oracle",
        "--jobs-dir",
        jobs,
        "--job",
        "breach",
      ],
      { cwd: ROOT, env: { ...process.env, CI: "true" } },
    );
    // The results table counts the trial but gives it no score, and the reason is printed.
    expect(r.stdout).toMatch(/grading_error:1/);
    expect(r.stdout).toMatch(/grading errors \(1; counted as R = 0/);
    expect(r.stdout).toMatch(/"public_sum" is binary but scored 0\.5/);
    // The progress line on stderr says why as well.
    expect(r.stderr).toMatch(/grading_error .*public_sum/);

    const json = await exec(
      process.execPath,
      ["dist/cli/main.js", "run", "--resume", "--job", "breach", "--jobs-dir", jobs, "--json"],
      { cwd: ROOT, env: { ...process.env, CI: "true" } },
    );
    const doc = JSON.parse(json.stdout) as { trials: { outcome: string; reward: unknown; error: string }[] };
    expect(doc.trials).toHaveLength(1);
    expect(doc.trials[0]).toMatchObject({ outcome: "grading_error", reward: null });
    expect(doc.trials[0]?.error).toMatch(/binary but scored 0\.5/);
  });
});
