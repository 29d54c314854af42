import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { type JobConfig, JobStore, writeJsonAtomic } from "../../src/store/index.js";
import { tempDir } from "../runner/helpers.js";
import { storedTrial } from "../support/stored-trials.js";

function config(jobId: string): JobConfig {
  return {
    schema_version: 1,
    job_id: jobId,
    created_at: "2026-01-01T00:00:00.000Z",
    tasks: [{ name: "t", path: "/x/t", checksum: "abc" }],
    agents: ["nop"],
    models: [null],
    attempts: 2,
    concurrency: 1,
    timeout_multiplier: 1,
    retries: 0,
    seed: 1,
    sandbox: "bwrap",
    agent_options: {},
  };
}

function trial(jobId: string, trialId: string, reward: number): TrialResult {
  return storedTrial({
    job_id: jobId,
    trial_id: trialId,
    task: { name: "t", checksum: "abc", category: "c", difficulty: null, path: "/x/t" },
    agent: "nop",
    attempt: 1,
    seed: 9,
    self_terminated: true,
    reward,
  });
}

describe("JobStore", () => {
  it("records trials idempotently and lists them from the index", async () => {
    const store = await JobStore.open(tempDir("store"));
    try {
      await store.createJob(config("j1"));
      await store.recordTrial(trial("j1", "a", 0.5));
      await store.recordTrial(trial("j1", "a", 0.75));
      await store.recordTrial(trial("j1", "b", 1));
      expect(await store.countTrials("j1")).toBe(2);
      const listed = await store.listTrials("j1");
      expect(listed.map((t) => [t.trial_id, t.reward])).toEqual([
        ["a", 0.75],
        ["b", 1],
      ]);
      await expect(store.createJob(config("j1"))).rejects.toThrow(/already exists.*--resume/);
      expect((await store.listJobs()).map((j) => [j.id, j.trials])).toEqual([["j1", 2]]);
    } finally {
      await store.close();
    }
  });

  it("reconciles after a crash: indexes orphan result files and drops unfinished trial folders", async () => {
    const dir = tempDir("store");
    const store = await JobStore.open(dir);
    try {
      await store.createJob(config("j2"));
      await store.recordTrial(trial("j2", "done", 1));
      // Killed after writing the file but before indexing it:
      mkdirSync(store.trialDir("j2", "orphan"), { recursive: true });
      writeJsonAtomic(join(store.trialDir("j2", "orphan"), "result.json"), trial("j2", "orphan", 0.25));
      // Killed mid-trial: a folder with logs but no result.
      mkdirSync(join(store.trialDir("j2", "halfway"), "agent"), { recursive: true });
      writeFileSync(join(store.trialDir("j2", "halfway"), "agent", "log.txt"), "partial");
      const done = await store.reconcile("j2", new Set(["done", "orphan", "halfway"]));
      expect([...done].sort()).toEqual(["done", "orphan"]);
      expect(existsSync(store.trialDir("j2", "halfway"))).toBe(false);
      expect(await store.countTrials("j2")).toBe(2);
    } finally {
      await store.close();
    }
  });

  it("reconciling keeps folders that are not trials and drops index rows whose result is gone", async () => {
    const store = await JobStore.open(tempDir("store"));
    try {
      await store.createJob(config("j3"));
      await store.recordTrial(trial("j3", "t__nop__a1", 1));
      await store.recordTrial(trial("j3", "t__nop__a2", 0.5));
      // The job's image build logs and a folder of the user's: no result.json, and no trial's.
      mkdirSync(join(store.jobDir("j3"), "images"));
      writeFileSync(join(store.jobDir("j3"), "images", "t.build.log"), "built\n");
      mkdirSync(join(store.jobDir("j3"), "notes"));
      // The user removed a trial's folder to run it again.
      rmSync(store.trialDir("j3", "t__nop__a2"), { recursive: true });
      const done = await store.reconcile("j3", new Set(["t__nop__a1", "t__nop__a2"]));
      expect([...done]).toEqual(["t__nop__a1"]);
      expect(existsSync(join(store.jobDir("j3"), "images", "t.build.log"))).toBe(true);
      expect(existsSync(join(store.jobDir("j3"), "notes"))).toBe(true);
      // Until it runs again, the removed trial has no result anywhere (an interrupted re-run
      // must not report the old one).
      expect((await store.listTrials("j3")).map((t) => t.trial_id)).toEqual(["t__nop__a1"]);
    } finally {
      await store.close();
    }
  });

  it("rejects a config.json that is not a job config, naming the file", async () => {
    const dir = tempDir("store");
    const store = await JobStore.open(dir);
    try {
      mkdirSync(join(dir, "bad"), { recursive: true });
      writeFileSync(join(dir, "bad", "config.json"), JSON.stringify({ job_id: "bad" }));
      expect(() => store.loadJobConfig("bad")).toThrow(/bad\/config\.json/);
      expect(() => store.loadJobConfig("missing")).toThrow(/no job named missing/);
    } finally {
      await store.close();
    }
  });
});

describe("damaged files in a job store", () => {
  it("a damaged result.json is a user error naming it; the other results stay", async () => {
    const store = await JobStore.open(tempDir("store-bad"));
    try {
      await store.createJob(config("j9"));
      await store.recordTrial(trial("j9", "t__nop__a1", 1));
      mkdirSync(store.trialDir("j9", "t__nop__a2"));
      const bad = join(store.trialDir("j9", "t__nop__a2"), "result.json");
      writeFileSync(bad, '{"schema_version": 1, "job_');
      await expect(store.reconcile("j9", new Set())).rejects.toThrow(
        `${bad}: not a valid trial result (Unterminated string in JSON at position 27); remove its folder to run that trial again`,
      );
      expect(await store.countTrials("j9")).toBe(1);
    } finally {
      await store.close();
    }
  });

  it("job names that would leave the jobs folder are refused", async () => {
    const store = await JobStore.open(tempDir("store-bad"));
    try {
      expect(() => store.jobDir("../x")).toThrow("is not allowed");
      expect(() => store.loadJobConfig("a/b")).toThrow("is not allowed");
      expect(store.jobDir("2026-run_1.b")).toBe(join(store.jobsDir, "2026-run_1.b"));
    } finally {
      await store.close();
    }
  });
});
