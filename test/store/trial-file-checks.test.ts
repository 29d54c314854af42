import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JobStore, writeJsonAtomic } from "../../src/store/index.js";
import { tempDir } from "../runner/helpers.js";
import { storedJobConfig, storedTask, storedTrial } from "../support/stored-trials.js";

const A1 = "t__oracle__a1";
const A2 = "t__oracle__a2";

/** A job with two finished trials, a1 and a2, recorded as `run` records them. */
async function jobWithTwoTrials(): Promise<JobStore> {
  const store = await JobStore.open(tempDir("trial-files"));
  await store.createJob(storedJobConfig({ job_id: "J1", attempts: 2 }));
  for (const [trial_id, attempt] of [
    [A1, 1],
    [A2, 2],
  ] as const) {
    await store.recordTrial(
      storedTrial({ job_id: "J1", trial_id, task: storedTask("t"), attempt, reward: 1 }),
    );
  }
  return store;
}

describe("resume refuses a trial result.json it cannot trust", () => {
  it("a valid result of another trial copied over: refused, naming both ids; nothing is rewritten", async () => {
    const store = await jobWithTwoTrials();
    try {
      const a1 = join(store.trialDir("J1", A1), "result.json");
      const a2 = join(store.trialDir("J1", A2), "result.json");
      writeFileSync(a2, readFileSync(a1));
      const before = readFileSync(a2, "utf8");
      await expect(store.reconcile("J1", new Set())).rejects.toThrow(
        `${a2}: it holds trial ${A1} of job J1, but its folder is trial ${A2} of job J1; remove its folder to run that trial again`,
      );
      expect(readFileSync(a2, "utf8")).toBe(before);
    } finally {
      await store.close();
    }
  });

  it("a result of the same trial in another job: refused", async () => {
    const store = await jobWithTwoTrials();
    try {
      const a2 = join(store.trialDir("J1", A2), "result.json");
      writeJsonAtomic(a2, storedTrial({ job_id: "J0", trial_id: A2, task: storedTask("t"), attempt: 2 }));
      await expect(store.reconcile("J1", new Set())).rejects.toThrow(`it holds trial ${A2} of job J0`);
    } finally {
      await store.close();
    }
  });

  it("a wrong field is named, not reported as a schema dump", async () => {
    const store = await jobWithTwoTrials();
    try {
      const a2 = join(store.trialDir("J1", A2), "result.json");
      const data = JSON.parse(readFileSync(a2, "utf8")) as Record<string, unknown>;
      data.reward = "high";
      writeFileSync(a2, JSON.stringify(data));
      await expect(store.reconcile("J1", new Set())).rejects.toThrow(
        `${a2}: not a valid trial result (field reward: `,
      );
      delete data.outcome;
      writeFileSync(a2, JSON.stringify(data));
      const e = await store.reconcile("J1", new Set()).catch((x: unknown) => x);
      expect(String(e)).toMatch(
        /result\.json: not a valid trial result \(field outcome: .*\(and 1 more\)\); remove its folder/,
      );
    } finally {
      await store.close();
    }
  });

  it("a result.json that is a folder: named, one line", async () => {
    const store = await jobWithTwoTrials();
    try {
      const dir = store.trialDir("J1", "t__oracle__a3");
      mkdirSync(join(dir, "result.json"), { recursive: true });
      await expect(store.reconcile("J1", new Set())).rejects.toThrow(
        `${join(dir, "result.json")}: is a folder, where a file is expected; remove its folder to run that trial again`,
      );
    } finally {
      await store.close();
    }
  });
});

describe("opening a jobs dir to read it", () => {
  it("a missing one is a user error and is not created", async () => {
    const missing = join(tempDir("trial-files"), "no", "jobs");
    await expect(JobStore.openExisting(missing)).rejects.toThrow(`no jobs dir ${missing}`);
    expect(existsSync(join(missing, ".."))).toBe(false);
  });

  it("a file in its place is a user error", async () => {
    const file = join(tempDir("trial-files"), "jobs");
    writeFileSync(file, "");
    await expect(JobStore.openExisting(file)).rejects.toThrow(
      `${file}: is a file, where the jobs dir is expected`,
    );
    await expect(JobStore.open(join(file, "x"))).rejects.toThrow(`${file}: is a file, where a folder above`);
  });

  it("an existing one opens, and open still creates a missing one for run", async () => {
    const dir = join(tempDir("trial-files"), "a", "b");
    const made = await JobStore.open(dir);
    await made.close();
    const read = await JobStore.openExisting(dir);
    await read.close();
    expect(read.jobsDir).toBe(dir);
  });
});
