import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";

describe("run with trials the infrastructure failed", () => {
  it("exits 3 and says how to run them again; resume runs them again", async () => {
    const jobs = tempDir("infra-exit");
    // The model server is down (nothing listens on port 9): the trial is an infra_error.
    const down = "--base-url=http://127.0.0.1:9/v1";
    const model = ["-a", "terminus", "-m", "openai-compatible:nowhere", down, "--agent-opt", "max_retries=0"];
    const job = ["--retries", "0", "--job", "J", "--jobs-dir", jobs, "--json"];
    const args = ["run", join(FIXTURES, "trivial"), ...model, ...job];
    const first = await runCli(args);
    const out = JSON.parse(first.stdout) as { trials: { outcome: string }[] };
    expect(out.trials.map((t) => t.outcome)).toEqual(["infra_error"]);
    // Before, exit 0: a script took a job with no result at all for a clean run.
    expect(first.code).toBe(3);
    expect(first.stderr).toContain(
      `1 trial(s) failed on the infrastructure (infra_error, not scored); run them again with: longhaul run --resume --job J --jobs-dir ${jobs}\n`,
    );
    const again = await runCli(["run", "--resume", "--job", "J", "--jobs-dir", jobs, "--json"]);
    expect(again.code).toBe(3);
    // Run again, not kept: the job reports it as already done otherwise.
    expect(again.stderr).toContain("job: 1 trials\n");
  }, 30_000);
});
