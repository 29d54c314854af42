import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyUsage, type Outcome, type TrialResult } from "../../src/core/index.js";
import { JobStore } from "../../src/store/index.js";
import { storedJobConfig } from "../support/stored-trials.js";

export const JOB = "job-view";
export const OTHER_JOB = "job-small";
/** The trial that carries a trajectory, a recording and verifier logs. */
export const RICH_TRIAL = "alpha__terminus__m_x__a0";
export const RECORDING_TEXT = "tests passed: 7 of 9";
export const INSTRUCTION = "Clean the <data> & report totals.";

export interface Fixture {
  jobsDir: string;
  taskDir: string;
  trials: TrialResult[];
}

function trial(i: number, overrides: Partial<TrialResult> = {}): TrialResult {
  const tasks = ["alpha", "beta", "gamma"];
  const models = ["m:x", "m:y"];
  const task = tasks[i % 3]!;
  const model = models[Math.floor(i / 3) % 2]!;
  const attempt = Math.floor(i / 6);
  const outcome: Outcome =
    i % 5 === 4
      ? "agent_timeout"
      : i % 7 === 6
        ? "infra_error"
        : i % 11 === 10
          ? "grading_error"
          : "completed";
  const reward = outcome === "infra_error" || outcome === "grading_error" ? null : ((i * 37) % 100) / 100;
  return {
    schema_version: 1,
    job_id: JOB,
    trial_id: `${task}__terminus__${model.replace(":", "_")}__a${attempt}`,
    task: {
      name: task,
      checksum: "c".repeat(64),
      category: "data",
      difficulty: "hard",
      path: "/nonexistent",
    },
    agent: "terminus",
    model,
    attempt,
    seed: 1000 + i,
    timing: {
      started_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      finished_at: new Date(Date.UTC(2026, 0, 1, 0, i + 1)).toISOString(),
      setup_sec: 1,
      agent_sec: 50,
      verifier_sec: 9,
      verifier_command_sec: 8,
      total_sec: 60 + i,
    },
    outcome,
    self_terminated: outcome === "completed",
    reward,
    subtasks: [
      {
        id: "parse",
        weight: 1,
        kind: "binary",
        visibility: "public",
        score: 1,
        error: null,
        message: "parsed <all> rows",
      },
      {
        id: "stress-units",
        weight: 3,
        kind: "continuous",
        visibility: "hidden",
        score: 0.5,
        error: null,
        message: "5 of 10 unit cases",
      },
    ],
    grading_errors: [],
    usage: { ...emptyUsage(), input_tokens: 1200 + i, output_tokens: 300, cost_usd: 0.01 * i, turns: 4 },
    infra_retries: 0,
    error: outcome === "completed" ? null : { kind: outcome, message: `failed <b>${i}</b>` },
    stress_digest: null,
    budget_left_sec: null,
    continuation: null,
    world: null,
    ...overrides,
  };
}

/** A jobs folder with two jobs: JOB (30 trials, one with every log) and OTHER_JOB (one trial). */
export async function buildFixture(): Promise<Fixture> {
  const root = mkdtempSync(join(tmpdir(), "longhaul-view-"));
  const jobsDir = join(root, "jobs");
  const taskDir = join(root, "tasks", "alpha");
  mkdirSync(taskDir, { recursive: true });
  writeFileSync(join(taskDir, "instruction.md"), `# Alpha\n\n${INSTRUCTION}\n`);
  const store = await JobStore.open(jobsDir);
  const trials: TrialResult[] = [];
  try {
    for (const [id, created] of [
      [JOB, "2026-01-02T00:00:00.000Z"],
      [OTHER_JOB, "2026-01-01T00:00:00.000Z"],
    ] as const) {
      await store.createJob(
        storedJobConfig({
          job_id: id,
          created_at: created,
          agents: ["terminus"],
          models: ["m:x", "m:y"],
          attempts: 5,
        }),
      );
    }
    for (let i = 0; i < 30; i++) {
      const t = trial(i, i === 0 ? { task: { ...trial(0).task, path: taskDir }, reward: 0.625 } : {});
      trials.push(t);
      await store.recordTrial(t);
    }
    const small = trial(1, {
      job_id: OTHER_JOB,
      trial_id: "beta__nop__a0",
      agent: "nop",
      model: null,
      outcome: "completed",
      reward: 1,
      error: null,
    });
    trials.push(small);
    await store.recordTrial(small);
  } finally {
    await store.close();
  }
  writeRichLogs(join(jobsDir, JOB, RICH_TRIAL));
  return { jobsDir, taskDir, trials };
}

function writeRichLogs(dir: string): void {
  mkdirSync(join(dir, "agent"), { recursive: true });
  mkdirSync(join(dir, "verifier"), { recursive: true });
  const trajectory = {
    schema_version: "ATIF-v1.2",
    session_id: "s-1",
    agent: { name: "terminus", version: "1", model_name: "m:x" },
    steps: [
      { step_id: 1, timestamp: "2026-01-01T00:00:00Z", source: "system", message: "You are in a terminal." },
      { step_id: 2, timestamp: "2026-01-01T00:00:01Z", source: "user", message: "Clean the data." },
      {
        step_id: 3,
        timestamp: "2026-01-01T00:00:05Z",
        source: "agent",
        message: "I will look at the files <first>.",
        tool_calls: [
          { tool_call_id: "c1", function_name: "run_shell", arguments: { command: "ls -la data/" } },
        ],
        observation: { results: [{ source_call_id: "c1", content: "raw.csv\nunits.csv" }] },
        metrics: { prompt_tokens: 900, completion_tokens: 40, cached_tokens: 0, cost_usd: 0.002 },
      },
    ],
    final_metrics: { total_prompt_tokens: 900, total_completion_tokens: 40, total_steps: 3 },
  };
  writeFileSync(join(dir, "agent", "trajectory.json"), JSON.stringify(trajectory));
  const cast = [
    JSON.stringify({ version: 2, width: 80, height: 24, timestamp: 1767225600 }),
    JSON.stringify([0.1, "o", "$ "]),
    JSON.stringify([0.4, "i", "make test\r"]),
    JSON.stringify([0.5, "o", "make test\r\n\u001b[32mrunning\u001b[0m\r\n"]),
    // A long idle stretch the player must not wait out.
    JSON.stringify([300, "o", `${RECORDING_TEXT}\r\n$ `]),
  ];
  writeFileSync(join(dir, "agent", "recording.cast"), `${cast.join("\n")}\n`);
  writeFileSync(join(dir, "verifier", "test-stdout.txt"), "collected 9 items\n7 passed, 2 failed\n");
}
