import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InfraError } from "../../src/core/index.js";
import { createProgress, runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import type { SandboxProvider } from "../../src/sandbox/types.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig, tempDir } from "./helpers.js";

const bwrap = getSandboxProvider("bwrap");
let store: JobStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe("a trial result the store cannot write", () => {
  it("ends the job with an infrastructure error, and no other trial goes on running", async () => {
    const jobs = tempDir("record-failure");
    store = await JobStore.open(jobs);
    const task = await fixtureTask("trivial");
    const config = jobConfig([task], { agents: ["nop"], attempts: 3 });
    const s = store;
    let creates = 0;
    // The first trial's result.json cannot be written (a folder holds its name), as on a disk
    // that refuses the write.
    const provider: SandboxProvider = {
      name: "records-fail",
      check: async () => undefined,
      create: async (spec) => {
        creates += 1;
        if (creates === 1)
          mkdirSync(join(s.trialDir(config.job_id, "trivial__nop__a1"), "result.json", "x"), {
            recursive: true,
          });
        return bwrap.create(spec);
      },
    };
    // A terminal's live status line, redrawn by a timer that must stop with the job.
    let writes = 0;
    const write = (): boolean => {
      writes += 1;
      return true;
    };
    const tty = { isTTY: true, write } as unknown as NodeJS.WriteStream;
    const ci = process.env.CI;
    delete process.env.CI;
    const progress = createProgress(tty);
    if (ci !== undefined) process.env.CI = ci;
    const err = await runJob({ store, config, tasks: [task], provider, resume: false, progress }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InfraError);
    expect(String(err)).toMatch(
      /could not save trial trivial__nop__a1 of job job-under-test: .*result\.json: is a folder/,
    );
    // The job is over when runJob returns: no later trial was started behind its back, and
    // nothing is drawn any more (a live timer would keep the process from ever exiting).
    const drawn = writes;
    await new Promise((r) => setTimeout(r, 1500));
    expect(creates).toBe(1);
    expect(writes).toBe(drawn);
    expect((await store.listJobs())[0]?.status).toBe("interrupted");
    expect(readdirSync(store.trialDir(config.job_id, "trivial__nop__a1"))).not.toContainEqual(
      expect.stringMatching(/\.tmp-/),
    );
  }, 30_000);
});
