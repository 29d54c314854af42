import { describe, expect, it } from "vitest";
import { MAX_JOB_TRIALS, planTrials } from "../../src/runner/trial-plan.js";
import { storedJobConfig } from "../support/stored-trials.js";

const task = { name: "t", path: "/x/t", checksum: "c" };

describe("a job's trial count", () => {
  it("past MAX_JOB_TRIALS (a hand-edited config.json) is a user error before any trial is planned", () => {
    const config = storedJobConfig({
      job_id: "big",
      tasks: [task],
      agents: ["nop", "oracle"],
      attempts: 600_000,
    });
    expect(() => planTrials(config)).toThrow(
      `job big: 1 task(s) × 2 agent(s) × 1 model(s) × 600000 attempt(s) is more than ${MAX_JOB_TRIALS} trials`,
    );
  });

  it("up to it, every trial is planned", () => {
    const config = storedJobConfig({ job_id: "ok", tasks: [task], agents: ["nop"], attempts: 3 });
    expect(planTrials(config).map((t) => t.trialId)).toEqual(["t__nop__a1", "t__nop__a2", "t__nop__a3"]);
  });
});
