import { describe, expect, it } from "vitest";
import { trialJobData, trialJobSchema } from "../../src/distributed/index.js";
import { planTrials } from "../../src/runner/index.js";
import { fixtureTask, jobConfig } from "../runner/helpers.js";

// A worker makes paths of a queued trial's id and task folder: a queue job written by another
// party than a coordinator must not name a place outside the worker's cache.
describe("the names a queued trial puts in a worker's paths", () => {
  it("a trial id or task folder that is not one path segment makes the trial malformed", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "paths", attempts: 1, seed: 1 });
    const [p] = planTrials(config);
    if (p === undefined) throw new Error("no plan");
    const ref = { name: task.name, folder: "seeded", checksum: task.checksum, bundle: "a".repeat(64) };
    const data = trialJobData(config, p, ref, null);
    expect(trialJobSchema.safeParse(data).success).toBe(true);
    for (const folder of ["../../../home/u", "..", ".", "a/b", "/etc", "x\0y"]) {
      expect(trialJobSchema.safeParse({ ...data, task: { ...ref, folder } }).success, folder).toBe(false);
    }
    for (const trial_id of ["../../x", "a/b", ".."]) {
      expect(trialJobSchema.safeParse({ ...data, trial_id }).success, trial_id).toBe(false);
    }
  });
});
