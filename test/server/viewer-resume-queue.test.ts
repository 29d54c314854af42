import { describe, expect, it } from "vitest";
import { createViewerApp } from "../../src/server/index.js";
import { JobStore } from "../../src/store/index.js";
import { tempDir } from "../runner/helpers.js";
import { storedJobConfig, storedTrial } from "../support/stored-trials.js";

describe("the viewer's resume command of an interrupted job", () => {
  it("names the queue the job ran on, its password masked, and says to put the password back", async () => {
    const jobsDir = tempDir("viewer-queue");
    const store = await JobStore.open(jobsDir);
    try {
      for (const [id, queue] of [
        ["queued", "redis://:***@queue-host:6379/0"],
        ["local", undefined],
      ] as const) {
        await store.createJob(
          storedJobConfig({ job_id: id, ...(queue === undefined ? {} : { queue_url: queue }) }),
        );
        await store.recordTrial(storedTrial({ job_id: id, trial_id: "t__oracle__a1" }));
        await store.setJobStatus(id, "interrupted");
      }
    } finally {
      await store.close();
    }
    const viewer = await createViewerApp({ jobsDir });
    try {
      const text = async (path: string) =>
        (await (await viewer.app.request(path)).text()).replaceAll("&#39;", "'").replaceAll("&#x27;", "'");
      const queued = await text("/jobs/queued");
      expect(queued).toContain(
        `<code>longhaul run --resume --job queued --jobs-dir ${jobsDir} --queue 'redis://:***@queue-host:6379/0'</code> (put the queue's password in place of ***: it is not recorded)`,
      );
      const local = await text("/jobs/local");
      expect(local).toContain(
        `<code>longhaul run --resume --job local --jobs-dir ${jobsDir}</code> runs its trials`,
      );
    } finally {
      await viewer.close();
    }
  });
});
