import { appendFileSync, cpSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InfraError, UserError } from "../../src/core/index.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import type { SandboxProvider } from "../../src/sandbox/types.js";
import { JobStore } from "../../src/store/index.js";
import { loadTask } from "../../src/task/index.js";
import { FIXTURES, jobConfig, tempDir } from "./helpers.js";

const bwrap = getSandboxProvider("bwrap");
const broken: SandboxProvider = {
  name: "broken",
  check: async () => undefined,
  create: async () => {
    throw new InfraError("sandbox would not start (injected)");
  },
};
let store: JobStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** A copy of the trivial fixture that the test may edit. */
function taskCopy(): string {
  const dir = join(tempDir("task-versions"), "trivial");
  cpSync(join(FIXTURES, "trivial"), dir, { recursive: true });
  return dir;
}

describe("resume and the trials a job keeps", () => {
  it("runs trials recorded as infra_error again, on the task as it is now", async () => {
    store = await JobStore.open(tempDir("jobs"));
    const dir = taskCopy();
    const v1 = await loadTask(dir);
    const config = jobConfig([v1], { agents: ["oracle"], attempts: 2 });
    const first = await runJob({ store, config, tasks: [v1], provider: broken, resume: false });
    expect(first.trials.map((t) => t.outcome)).toEqual(["infra_error", "infra_error"]);
    // The task is fixed meanwhile: none of its trials has a result, so nothing would be mixed.
    appendFileSync(join(dir, "instruction.md"), "\nOne more line.\n");
    const v2 = await loadTask(dir);
    const again = await runJob({ store, config, tasks: [v2], provider: bwrap, resume: true });
    expect(again.ranThisTime).toBe(2);
    expect(again.trials.map((t) => [t.outcome, t.task.checksum])).toEqual([
      ["completed", v2.checksum],
      ["completed", v2.checksum],
    ]);
  }, 30_000);

  it("refuses to add trials of a changed task to a job whose trials ran on the old one", async () => {
    store = await JobStore.open(tempDir("jobs"));
    const dir = taskCopy();
    const v1 = await loadTask(dir);
    const config = jobConfig([v1], { agents: ["nop"], attempts: 2 });
    // One attempt ran; the job's second attempt is still to run.
    const first = await runJob({
      store,
      config: { ...config, attempts: 1 },
      tasks: [v1],
      provider: bwrap,
      resume: false,
    });
    expect(first.trials).toHaveLength(1);
    appendFileSync(join(dir, "instruction.md"), "\nA different task now.\n");
    const v2 = await loadTask(dir);
    const err = await runJob({ store, config, tasks: [v2], provider: bwrap, resume: true }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    expect(String(err)).toMatch(
      /task trivial changed since 1 trial\(s\) of job job-under-test ran on it .*restore the task, or start a new job/,
    );
    expect((await store.listTrials(config.job_id)).map((t) => t.task.checksum)).toEqual([v1.checksum]);
  }, 30_000);
});
