import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type AnalysisTrial,
  harborTrialSchema,
  outcomeOfException,
  readHarborJob,
  summarize,
  toAnalysisTrial,
} from "../../src/analysis/index.js";
import { emptyUsage, type TrialResult, UserError } from "../../src/core/index.js";
import { JobStore } from "../../src/store/index.js";
import { jobConfig, tempDir } from "../runner/helpers.js";

const FIXTURE = resolve(import.meta.dirname, "../fixtures/harbor-jobs/tb-sample");

const byName = (trials: readonly AnalysisTrial[]) =>
  [...trials].sort((a, b) => `${a.task.name}${a.attempt}`.localeCompare(`${b.task.name}${b.attempt}`));

describe("readHarborJob on a hand-written Harbor job folder", () => {
  const job = readHarborJob(FIXTURE);

  it("reads every trial result.json and nothing else (not the job's own result.json)", () => {
    expect(job.skipped).toEqual([]);
    expect(job.trials).toHaveLength(4);
    expect(new Set(job.trials.map((t) => t.job_id))).toEqual(new Set(["tb-sample"]));
  });

  it("maps rewards, outcomes, names, attempts, tokens and cost", () => {
    const [fix0, fix1, hello0, hello1] = byName(job.trials) as [
      AnalysisTrial,
      AnalysisTrial,
      AnalysisTrial,
      AnalysisTrial,
    ];
    // Attempts follow start times: Zx8Yt1K started before Pq4Rs5T, Ab3dE9x before Q7kLm2P.
    expect(hello0).toMatchObject({ reward: 1, outcome: "completed", attempt: 0, self_terminated: true });
    expect(hello1).toMatchObject({ reward: 0.8, outcome: "completed", attempt: 1 });
    expect(fix0).toMatchObject({ reward: 0, outcome: "agent_timeout", attempt: 0, self_terminated: false });
    expect(fix0.error?.kind).toBe("AgentTimeoutError");
    expect(fix1).toMatchObject({ reward: null, outcome: "agent_error", attempt: 1 });
    expect(hello0.agent).toBe("terminus-2");
    expect(hello0.model).toBe("anthropic:claude-sonnet-4-5");
    expect(hello0.usage).toMatchObject({
      input_tokens: 12000,
      output_tokens: 1500,
      cost_usd: 0.041,
      cost_known: true,
    });
    // Q7kLm2P has cost_usd null: its cost is unknown, not $0.
    expect(hello1.usage).toMatchObject({ cost_usd: 0, cost_known: false });
  });

  it("gives Harbor's score: Pass@1 1/4 and mean R 0.45 (an errored trial without reward is R = 0)", () => {
    const s = summarize(job.trials, { groupBy: ["agent", "model"] });
    expect(s.overall.pass095).toMatchObject({ k: 1, n: 4 });
    expect(s.overall.meanReward.value).toBeCloseTo(0.45, 10);
    expect(s.overall.outcomes).toMatchObject({ completed: 2, agent_timeout: 1, agent_error: 1 });
  });
});

describe("bad and unusual Harbor trial files", () => {
  it("skips an unreadable or invalid trial with the file and field named, and keeps the others", () => {
    const dir = join(tempDir("harbor"), "job");
    cpSync(FIXTURE, dir, { recursive: true });
    mkdirSync(join(dir, "broken__1"));
    writeFileSync(join(dir, "broken__1", "result.json"), "{ not json");
    mkdirSync(join(dir, "wrong__2"));
    writeFileSync(
      join(dir, "wrong__2", "result.json"),
      JSON.stringify({
        task_name: "t",
        trial_name: "wrong__2",
        agent_info: { name: "a" },
        verifier_result: { rewards: { reward: "1" } },
      }),
    );
    const job = readHarborJob(dir);
    expect(job.trials).toHaveLength(4);
    expect(job.skipped).toHaveLength(2);
    const [broken, wrong] = job.skipped;
    expect(broken?.file).toBe(join(dir, "broken__1", "result.json"));
    expect(broken?.reason).toMatch(/not valid JSON/);
    expect(wrong?.file).toBe(join(dir, "wrong__2", "result.json"));
    expect(wrong?.reason).toMatch(/field verifier_result\.rewards\.reward: /);
  });

  it("a folder with no trial result is a UserError naming it", () => {
    const dir = tempDir("harbor");
    expect(() => readHarborJob(dir)).toThrow(UserError);
    expect(() => readHarborJob(dir)).toThrow(/no trial result\.json found/);
  });

  it("maps Harbor's exception types to outcomes", () => {
    expect(outcomeOfException("AgentTimeoutError")).toBe("agent_timeout");
    expect(outcomeOfException("VerifierTimeoutError")).toBe("grading_error");
    expect(outcomeOfException("RewardFileNotFoundError")).toBe("grading_error");
    expect(outcomeOfException("EnvironmentStartTimeoutError")).toBe("infra_error");
    expect(outcomeOfException("AgentSetupTimeoutError")).toBe("infra_error");
    expect(outcomeOfException("NonZeroAgentExitCodeError")).toBe("agent_error");
    expect(outcomeOfException("SomethingNew")).toBe("agent_error");
  });

  const base = { task_name: "t", trial_name: "t__x", agent_info: { name: "oracle" } };

  it("reads R from `reward`, else the only key, else the mean of the keys as subtasks", () => {
    const read = (rewards: Record<string, number>) =>
      toAnalysisTrial(harborTrialSchema.parse({ ...base, verifier_result: { rewards } }), 0, "j");
    expect(read({ reward: 0.5, other: 1 })).toMatchObject({ reward: 0.5, subtasks: [] });
    expect(read({ accuracy: 0.25 })).toMatchObject({ reward: 0.25 });
    expect(read({ a: 1, b: 0 })).toMatchObject({
      reward: 0.5,
      subtasks: [
        { id: "a", weight: 1, score: 1 },
        { id: "b", weight: 1, score: 0 },
      ],
    });
    expect(read({ reward: 3 })).toBe("verifier_result.rewards.reward is 3, outside [0, 1]");
  });

  it("a verifier failure or no reward at all is a grading_error; an environment failure is excluded", () => {
    const parse = (extra: object) => toAnalysisTrial(harborTrialSchema.parse({ ...base, ...extra }), 0, "j");
    expect(parse({})).toMatchObject({ outcome: "grading_error", reward: null });
    expect(
      parse({ exception_info: { exception_type: "VerifierTimeoutError", exception_message: "600 s" } }),
    ).toMatchObject({
      outcome: "grading_error",
      reward: null,
      grading_errors: ["VerifierTimeoutError: 600 s"],
    });
    expect(
      parse({ exception_info: { exception_type: "EnvironmentStartTimeoutError" }, verifier_result: null }),
    ).toMatchObject({ outcome: "infra_error", reward: null });
    // No model: the agent spent nothing, so $0 is a known cost.
    expect(parse({ verifier_result: { rewards: { reward: 1 } } })).toMatchObject({
      model: null,
      usage: { cost_usd: 0, cost_known: true },
    });
  });
});

function longhaulTrial(
  job: string,
  task: string,
  attempt: number,
  outcome: TrialResult["outcome"],
  reward: number | null,
): TrialResult {
  return {
    schema_version: 1,
    job_id: job,
    trial_id: `${task}__terminus__x_m__a${attempt}`,
    task: {
      name: task,
      checksum: "c".repeat(64),
      category: "data",
      difficulty: null,
      path: `/tasks/${task}`,
    },
    agent: "terminus",
    model: "x:m",
    attempt,
    seed: 7,
    timing: {
      started_at: `2026-01-01T00:0${attempt}:00.000Z`,
      finished_at: `2026-01-01T00:0${attempt}:30.000Z`,
      setup_sec: 1,
      agent_sec: 20,
      verifier_sec: 9,
      verifier_command_sec: 8,
      total_sec: 30,
    },
    outcome,
    self_terminated: outcome === "completed",
    reward,
    subtasks: [],
    grading_errors: outcome === "grading_error" ? ["verifier exited with 1"] : [],
    usage: {
      ...emptyUsage(),
      input_tokens: 100,
      output_tokens: 10,
      cached_tokens: 40,
      cost_usd: 0.5,
      cost_known: true,
    },
    infra_retries: 0,
    error: outcome === "completed" ? null : { kind: outcome, message: `it was ${outcome}` },
    stress_digest: null,
    budget_left_sec: null,
    continuation: null,
    world: null,
  };
}

describe("a longhaul job folder read as a Harbor job", () => {
  it("gives the same rewards and outcomes as longhaul's own records (round trip)", async () => {
    const jobsDir = tempDir("harbor");
    const store = await JobStore.open(jobsDir);
    const written = [
      longhaulTrial("lh", "alpha", 0, "completed", 1),
      longhaulTrial("lh", "alpha", 1, "completed", 0.6),
      longhaulTrial("lh", "beta", 0, "agent_timeout", 0.25),
      longhaulTrial("lh", "beta", 1, "grading_error", null),
      longhaulTrial("lh", "gamma", 0, "infra_error", null),
      longhaulTrial("lh", "gamma", 1, "agent_error", 0),
    ];
    try {
      await store.createJob(
        jobConfig([], {
          job_id: "lh",
          created_at: "2026-01-01T00:00:00.000Z",
          agents: ["terminus"],
          models: ["x:m"],
          attempts: 2,
          seed: 1,
        }),
      );
      for (const t of written) await store.recordTrial(t);
      store.writeJobResult("lh", {
        job_id: "lh",
        status: "finished",
        trials: 6,
        planned: 6,
        outcomes: { completed: 2, agent_timeout: 1, grading_error: 1, infra_error: 1, agent_error: 1 },
        mean_reward: 0.37,
      });
      // longhaul still reads its own files and index unchanged.
      expect(await store.listTrials("lh")).toEqual(
        [...written].sort((a, b) => a.task.name.localeCompare(b.task.name) || a.attempt - b.attempt),
      );
    } finally {
      await store.close();
    }
    const job = readHarborJob(join(jobsDir, "lh"));
    expect(job.skipped).toEqual([]);
    // The job's own result.json carries Harbor's JobResult fields next to longhaul's summary.
    const jobResult = JSON.parse(readFileSync(join(jobsDir, "lh", "result.json"), "utf8"));
    expect(jobResult).toMatchObject({
      job_id: "lh",
      mean_reward: 0.37,
      started_at: "2026-01-01T00:00:00.000Z",
      n_total_trials: 6,
      stats: { n_trials: 6, n_errors: 4 },
    });
    expect(jobResult.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Each trial file holds Harbor's required TrialResult fields.
    const file = JSON.parse(
      readFileSync(join(jobsDir, "lh", "beta__terminus__x_m__a0", "result.json"), "utf8"),
    );
    expect(file).toMatchObject({
      task_name: "beta",
      trial_name: "beta__terminus__x_m__a0",
      task_id: { path: "/tasks/beta" },
      task_checksum: "c".repeat(64),
      config: { task: { path: "/tasks/beta" } },
      agent_info: { name: "terminus", version: "longhaul", model_info: { name: "m", provider: "x" } },
      agent_result: { n_input_tokens: 100, n_cache_tokens: 40, n_output_tokens: 10, cost_usd: 0.5 },
      verifier_result: { rewards: { reward: 0.25 } },
      exception_info: { exception_type: "AgentTimeoutError", exception_message: "it was agent_timeout" },
    });
    expect(file.trial_uri).toMatch(/^file:\/\/.*\/lh\/beta__terminus__x_m__a0$/);
    const key = (t: { task: { name: string }; attempt: number }) => `${t.task.name}/${t.attempt}`;
    const got = new Map(job.trials.map((t) => [key(t), t]));
    expect(got.size).toBe(written.length);
    for (const w of written) {
      const g = got.get(key(w));
      expect({ task: key(w), reward: g?.reward, outcome: g?.outcome }).toEqual({
        task: key(w),
        reward: w.reward,
        outcome: w.outcome,
      });
      expect(g?.agent).toBe("terminus");
      expect(g?.model).toBe("x:m");
      expect(g?.usage).toMatchObject({
        input_tokens: 100,
        output_tokens: 10,
        cost_usd: 0.5,
        cost_known: true,
      });
    }
  });
});
