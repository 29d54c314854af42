import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { runJob } from "../../src/runner/run-job.js";
import type { Sandbox, SandboxProvider, SandboxSpec } from "../../src/sandbox/types.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig, tempDir } from "./helpers.js";

/** A provider that refuses every sandbox, as a bug or an unforeseen input would. */
const refusing: SandboxProvider = {
  name: "refusing",
  check: async () => undefined,
  create: async (_spec: SandboxSpec): Promise<Sandbox> => {
    throw new UserError("sandbox refused");
  },
};

describe("a job that stops on an error", () => {
  it("is marked interrupted, not left running, and can be resumed", async () => {
    const store = await JobStore.open(tempDir("status"));
    try {
      const task = await fixtureTask("trivial");
      const config = jobConfig([task], { job_id: "stops" });
      await expect(
        runJob({ store, config, tasks: [task], provider: refusing, resume: false }),
      ).rejects.toThrow("sandbox refused");
      const jobs = await store.listJobs();
      expect(jobs.map((j) => [j.id, j.status])).toEqual([["stops", "interrupted"]]);
      expect(store.hasJob("stops")).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("refuses clashing trial ids before writing anything", async () => {
    const store = await JobStore.open(tempDir("status"));
    try {
      const task = await fixtureTask("trivial");
      const config = jobConfig([task], { job_id: "clash", models: ["a:b c", "a:b_c"] });
      await expect(
        runJob({ store, config, tasks: [task], provider: refusing, resume: false }),
      ).rejects.toThrow('models "a:b c" and "a:b_c" map to the same trial folder');
      expect(store.hasJob("clash")).toBe(false);
      expect(await store.listJobs()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
