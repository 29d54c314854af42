import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Trajectory } from "../../src/agents/llm-loop/trajectory.js";
import { type TrialResult, UserError } from "../../src/core/index.js";
import { exportSft, type SftRecord } from "../../src/report/export-sft.js";
import { JobStore } from "../../src/store/index.js";
import { taskChecksum } from "../../src/task/index.js";
import { tempDir } from "../runner/helpers.js";
import { storedJobConfig, storedTask, storedTrial } from "../support/stored-trials.js";

/** Trials recorded straight into a store, each with the trajectory (or none) a case needs. */
const dir = tempDir("export-sft-store");
const jobsDir = join(dir, "jobs");
const taskDir = join(dir, "scripted-task");
const JOB = "mixed";

/** The checksum the task folder had when its trials ran (the export reads only that folder). */
let checksum = "";

function trial(
  task: string,
  outcome: TrialResult["outcome"],
  reward: number | null,
  path: string,
): TrialResult {
  return storedTrial({
    job_id: JOB,
    trial_id: `${task}__tools__a1`,
    task: { ...storedTask(task, "data", path), checksum },
    agent: "tools",
    model: "x:m",
    attempt: 1,
    seed: 42,
    outcome,
    self_terminated: true,
    reward,
  });
}

/** A scripted agent's trajectory: one agent step that ran a command, no user step. */
const scripted: Trajectory = {
  schema_version: "ATIF-v1.4",
  session_id: "s",
  agent: { name: "tools", version: "1", model_name: "x:m" },
  steps: [
    {
      step_id: 1,
      timestamp: "2026-01-01T00:00:00Z",
      source: "agent",
      message: "",
      tool_calls: [{ tool_call_id: "k1", function_name: "exec", arguments: { command: "make" } }],
      observation: { results: [{ source_call_id: "k1", content: "built" }] },
    },
  ],
  final_metrics: {
    total_prompt_tokens: 0,
    total_completion_tokens: 0,
    total_cached_tokens: 0,
    total_cost_usd: 0,
    total_steps: 1,
  },
};

const withUser: Trajectory = {
  ...scripted,
  steps: [
    { step_id: 1, timestamp: "2026-01-01T00:00:00Z", source: "user", message: "Task: build" },
    ...scripted.steps.map((st) => ({ ...st, step_id: 2 })),
  ],
};

beforeAll(async () => {
  mkdirSync(taskDir, { recursive: true });
  writeFileSync(join(taskDir, "instruction.md"), "Build the project.\n");
  checksum = await taskChecksum(taskDir);
  const store = await JobStore.open(jobsDir);
  try {
    await store.createJob(storedJobConfig({ job_id: JOB, agents: ["tools"], models: ["x:m"] }));
    const cases: [TrialResult, Trajectory | null][] = [
      [trial("scripted", "completed", 1, taskDir), scripted],
      [trial("gone", "completed", 0.97, join(dir, "moved-away")), withUser],
      [trial("lost", "completed", 0.5, join(dir, "moved-away")), scripted],
      [trial("infra", "infra_error", null, taskDir), scripted],
      [trial("grading", "grading_error", null, taskDir), scripted],
      [trial("oracle-like", "completed", 1, taskDir), null],
    ];
    for (const [t, traj] of cases) {
      await store.recordTrial(t);
      if (traj === null) continue;
      const agentDir = join(store.trialDir(JOB, t.trial_id), "agent");
      mkdirSync(agentDir, { recursive: true });
      writeFileSync(join(agentDir, "trajectory.json"), JSON.stringify(traj));
    }
  } finally {
    await store.close();
  }
});

describe("exportSft on stored trials", () => {
  it("skips infrastructure errors, unscored trials and missing trajectories, and counts why", async () => {
    const out = join(dir, "all.jsonl");
    const r = await exportSft({ jobsDir, out, format: "openai", includeFailed: true });
    expect(r).toMatchObject({ job: JOB, trials: 6, exported: 2 });
    expect(r.skipped).toEqual({
      "infrastructure error": 1,
      "not scored": 1,
      "no trajectory": 1,
      // No user step and its task folder is gone: nothing to say what was asked.
      "no user step and no task instruction": 1,
    });
    const recs = readFileSync(out, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as SftRecord);
    expect(recs.map((x) => x.metadata.task).sort()).toEqual(["gone", "scripted"]);
    const s = recs.find((x) => x.metadata.task === "scripted");
    // No user step: the task's instruction is the user message before the commands the agent ran.
    expect(s?.messages).toEqual([
      { role: "user", content: "Build the project.\n" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "exec", arguments: '{"command":"make"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "built" },
    ]);
    expect(s?.metadata.lineage_depth).toBe(0);
    // The task folder is gone: the record stays, its depth is unknown (null), not guessed as 0.
    const gone = recs.find((x) => x.metadata.task === "gone");
    expect(gone?.metadata).toMatchObject({ lineage_depth: null, reward: 0.97, passed: true });
    expect(gone?.messages[0]).toEqual({ role: "user", content: "Task: build" });
  });

  it("--min-reward sets the floor; an unknown job is a UserError", async () => {
    const out = join(dir, "high.jsonl");
    const r = await exportSft({ jobsDir, job: JOB, out, format: "hf", minReward: 0.98 });
    expect(r.exported).toBe(1);
    expect(r.skipped).toEqual({
      "R below 0.98": 2,
      "infrastructure error": 1,
      "not scored": 1,
      "no trajectory": 1,
    });
    const [rec] = readFileSync(out, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as SftRecord);
    expect(rec?.metadata.task).toBe("scripted");
    expect(rec?.messages[1]?.tool_calls?.[0]?.function.arguments).toEqual({ command: "make" });
    await expect(
      exportSft({ jobsDir, job: "nope", out: join(dir, "x.jsonl"), format: "hf" }),
    ).rejects.toThrow(UserError);
  });
});
