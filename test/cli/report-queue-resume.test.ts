import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reportedJob } from "../../src/cli/commands/report-jobs.js";
import { jobStatusLine } from "../../src/report/index.js";
import { JobStore } from "../../src/store/index.js";
import { tempDir } from "../runner/helpers.js";
import { storedJobConfig } from "../support/stored-trials.js";

describe("the resume command a report prints", () => {
  it("names the queue a job ran on, its password masked, and says to put the password back", async () => {
    const store = await JobStore.open(tempDir("report-queue"));
    try {
      await store.createJob(storedJobConfig({ job_id: "q", queue_url: "redis://:***@queue-host:6379/0" }));
      await store.setJobStatus("q", "interrupted");
      const job = await reportedJob(store, "q", []);
      expect(job.resume).toBe(
        `longhaul run --resume --job q --jobs-dir ${store.jobsDir} --queue 'redis://:***@queue-host:6379/0'`,
      );
      expect(jobStatusLine(job)).toMatch(
        /Resume it with: .* --queue 'redis:\/\/:\*\*\*@queue-host:6379\/0' \(put the queue's password in place of \*\*\*: it is not recorded\)$/,
      );

      // A queue without a password: the command runs as printed, with nothing to add.
      await store.recordQueueUrl("q", "redis://queue-host:6379");
      const plain = await reportedJob(store, "q", []);
      expect(plain.resume).toMatch(/ --queue redis:\/\/queue-host:6379$/);
      expect(jobStatusLine(plain)).not.toContain("password");
    } finally {
      await store.close();
    }
  });

  it("reads a config.json written before the queue was recorded, and prints no --queue for it", async () => {
    const store = await JobStore.open(tempDir("report-old-config"));
    try {
      const { queue_url: _, ...old } = storedJobConfig({ job_id: "old" });
      mkdirSync(store.jobDir("old"));
      writeFileSync(join(store.jobDir("old"), "config.json"), JSON.stringify(old));
      await store.ensureJobRow(store.loadJobConfig("old"));
      await store.setJobStatus("old", "interrupted");
      const job = await reportedJob(store, "old", []);
      expect(job.resume).toBe(`longhaul run --resume --job old --jobs-dir ${store.jobsDir}`);
    } finally {
      await store.close();
    }
  });
});
