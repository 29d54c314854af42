import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig, tempDir } from "../runner/helpers.js";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";

/**
 * longhaul's terminus agent through the runner with its model calls sent through the trial's
 * gateway: a token budget that stops it, and an upstream that never recovers.
 */
const PUBLIC_PART = "awk '{s+=$1} END {print s}' /app/numbers.txt > /app/sum.txt\n";
const usage = { input: 1200, output: 80, cached: 200 };
const say = (keystrokes: string) =>
  reply.json(
    { analysis: "a", plan: "p", commands: [{ keystrokes, duration: 0.5 }], task_complete: false },
    usage,
  );

let llm: LoopbackLlm;
beforeAll(async () => {
  llm = await startLoopbackLlm();
});
afterAll(async () => {
  await llm.close();
});
afterEach(() => llm.reset());

async function run(jobId: string, agentOptions: Record<string, string>, retries = 0) {
  const store = await JobStore.open(tempDir("gw"));
  try {
    const task = await fixtureTask("hello");
    const config = jobConfig([task], {
      job_id: jobId,
      agents: ["terminus"],
      models: ["openai-compatible:loop-model"],
      agent_options: { base_url: llm.url, ...agentOptions },
      timeout_multiplier: 4,
      retries,
    });
    const out = await runJob({
      store,
      config,
      tasks: [task],
      provider: getSandboxProvider("bwrap"),
      resume: false,
    });
    const trial = out.trials[0];
    if (!trial) throw new Error("no trial");
    return { trial, dir: store.trialDir(jobId, trial.trial_id) };
  } finally {
    await store.close();
  }
}

const seen = (t: TrialResult) => ({ outcome: t.outcome, error: t.error, usage: t.usage });

describe("runner with the model gateway", () => {
  it("stops a trial at its token budget: the next call is refused and the outcome says so", async () => {
    // Each answer spends 1280 tokens: the second crosses 2000, so the third call is refused.
    llm.push(say(PUBLIC_PART), say("ls /app\n"), say("echo never\n"));
    const before = llm.requests.length;
    const { trial, dir } = await run("budget", { budget_tokens: "2000" }, 2);
    expect(trial.outcome, JSON.stringify(seen(trial))).toBe("agent_timeout");
    expect(trial.error).toMatchObject({ kind: "budget" });
    expect(trial.error?.message).toMatch(/token budget spent: 2560 of 2000/);
    expect(trial.infra_retries).toBe(0);
    expect(llm.requests.length - before).toBe(2);
    // Tokens and cost as the gateway counted them; the agent's own turns kept.
    expect(trial.usage).toMatchObject({
      input_tokens: 2400,
      output_tokens: 160,
      cached_tokens: 400,
      turns: 2,
    });
    // What the agent did before the stop is graded: the public half of the task.
    expect(trial.reward).toBeGreaterThan(0);
    expect(trial.reward).toBeLessThan(1);
    const lines = readFileSync(join(dir, "agent", "gateway.jsonl"), "utf8")
      .trim()
      .split("\n");
    const records = lines.map((l) => JSON.parse(l) as { status: number; refused: string | null });
    expect(records.map((r) => [r.status, r.refused])).toEqual([
      [200, null],
      [200, null],
      [400, "budget"],
    ]);
  });

  it("makes an upstream that fails past every retry an infrastructure error, not the agent's", async () => {
    llm.setFallback(() => ({ kind: "error", status: 503 }));
    const { trial, dir } = await run("down", { max_retries: "1", retry_base_ms: "1", retry_max_ms: "5" });
    expect(trial.outcome, JSON.stringify(seen(trial))).toBe("infra_error");
    expect(trial.error?.message).toMatch(/model gateway: upstream openai-compatible failed: http 503/);
    expect(existsSync(join(dir, "agent", "gateway.jsonl"))).toBe(true);
  });
});
