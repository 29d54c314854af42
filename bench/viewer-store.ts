import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { emptyUsage, OUTCOMES, Rng, type TrialResult } from "../src/core/index.js";
import { JobStore } from "../src/store/index.js";
import { storedJobConfig } from "../test/support/stored-trials.js";

/**
 * A synthetic job of many trials for the viewer benchmark. Rows go straight into the index in one
 * transaction (recordTrial would also write a result.json per trial, which is not what is measured).
 */
export async function buildSyntheticStore(dir: string, jobId: string, trials: number): Promise<void> {
  const store = await JobStore.open(dir);
  await store.createJob(
    storedJobConfig({ job_id: jobId, agents: ["terminus", "tools"], models: ["m:a", "m:b", "m:c", "m:d"] }),
  );
  await store.close();

  const db = new BetterSqlite3(join(dir, "longhaul.db"));
  db.pragma("journal_mode = WAL");
  const insert = db.prepare(`INSERT INTO trials (trial_id, job_id, task_name, task_checksum, category, agent,
    model, attempt, seed, outcome, reward, self_terminated, started_at, finished_at, total_sec, cost_usd,
    result_json) VALUES (@trial_id, @job_id, @task_name, @task_checksum, @category, @agent, @model,
    @attempt, @seed, @outcome, @reward, @self_terminated, @started_at, @finished_at, @total_sec, @cost_usd,
    @result_json)`);
  const rng = new Rng(12345);
  const rand = (): number => rng.nextU32() / 2 ** 32;
  db.transaction(() => {
    for (let i = 0; i < trials; i++) {
      const r = syntheticTrial(jobId, i, rand);
      insert.run({
        trial_id: r.trial_id,
        job_id: jobId,
        task_name: r.task.name,
        task_checksum: r.task.checksum,
        category: r.task.category,
        agent: r.agent,
        model: r.model,
        attempt: r.attempt,
        seed: r.seed,
        outcome: r.outcome,
        reward: r.reward,
        self_terminated: r.self_terminated ? 1 : 0,
        started_at: r.timing.started_at,
        finished_at: r.timing.finished_at,
        total_sec: r.timing.total_sec,
        cost_usd: r.usage.cost_usd,
        result_json: JSON.stringify(r),
      });
    }
  })();
  db.close();
}

function syntheticTrial(jobId: string, i: number, rand: () => number): TrialResult {
  const task = `task-${String(i % 200).padStart(3, "0")}`;
  // i maps one to one onto (task, agent × model, attempt), so trial ids never collide.
  const combo = Math.floor(i / 200) % 8;
  const agent = combo % 2 === 0 ? "terminus" : "tools";
  const model = `m:${"abcd"[Math.floor(combo / 2)]}`;
  const attempt = Math.floor(i / 1600);
  const roll = rand();
  const outcome = roll < 0.8 ? OUTCOMES[0] : OUTCOMES[1 + Math.floor(rand() * 4)]!;
  const scored = outcome !== "grading_error" && outcome !== "infra_error";
  const subtasks = Array.from({ length: 8 }, (_, k) => ({
    id: `s${k}`,
    weight: 1 + (k % 3),
    kind: "continuous" as const,
    visibility: k < 5 ? ("public" as const) : ("hidden" as const),
    score: scored ? Math.round(rand() * 100) / 100 : 0,
    error: null,
    message: `checked ${k * 7} records`,
  }));
  const w = subtasks.reduce((s, t) => s + t.weight, 0);
  const reward = scored ? subtasks.reduce((s, t) => s + t.weight * t.score, 0) / w : null;
  const start = Date.UTC(2026, 0, 1) + i * 60_000;
  const total = 60 + rand() * 3000;
  return {
    schema_version: 1,
    job_id: jobId,
    trial_id: `${task}__${agent}__${model.replace(":", "_")}__a${attempt}`,
    task: {
      name: task,
      checksum: "0".repeat(64),
      category: `cat-${i % 7}`,
      difficulty: null,
      path: `/t/${task}`,
    },
    agent,
    model,
    attempt,
    seed: i,
    timing: {
      started_at: new Date(start).toISOString(),
      finished_at: new Date(start + total * 1000).toISOString(),
      setup_sec: 1,
      agent_sec: total - 5,
      verifier_sec: 4,
      verifier_command_sec: 3,
      total_sec: total,
    },
    outcome,
    self_terminated: outcome === "completed",
    reward,
    subtasks,
    grading_errors: [],
    usage: { ...emptyUsage(), input_tokens: 100_000, output_tokens: 9000, cost_usd: rand() * 3, turns: 40 },
    infra_retries: 0,
    error: outcome === "completed" ? null : { kind: outcome, message: "synthetic failure" },
    stress_digest: null,
    budget_left_sec: null,
    continuation: null,
    world: null,
  };
}
