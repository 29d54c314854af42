import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";

describe("run --resume runs the job as its config.json records it", () => {
  it("refuses options that would change the job, and takes another -n", async () => {
    const jobs = tempDir("resume-options");
    const first = await runCli([
      "run",
      join(FIXTURES, "trivial"),
      "-a",
      "nop",
      "--job",
      "J",
      "--jobs-dir",
      jobs,
    ]);
    expect(first.code).toBe(0);
    const resume = ["run", "--resume", "--job", "J", "--jobs-dir", jobs, "--json"];
    // Before, these were dropped without a word: exit 0, and none of the asked-for trials ran.
    const changed = await runCli([...resume, "-a", "oracle", "-k", "3", join(FIXTURES, "hello")]);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toBe(
      "longhaul: --resume continues a job as its config.json records it; task paths, --agent, --attempts cannot change it: start a new job (--job NAME) for other trials\n",
    );
    expect(changed.stdout).toBe("");
    const more = await runCli([...resume, "-n", "2"]);
    expect(more.code).toBe(0);
    const out = JSON.parse(more.stdout) as { trials: { trial_id: string }[] };
    expect(out.trials.map((t) => t.trial_id)).toEqual(["trivial__nop__a1"]);
  }, 30_000);
});
