import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig, tempDir } from "../runner/helpers.js";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";

/**
 * The terminus agent through the whole runner: a scripted model behind a real HTTP server, real
 * tmux, the real bwrap sandbox, the real verifier. The model's keystrokes solve the `hello`
 * fixture (sum.txt plus an executable bin/sum) or only part of it.
 */
const SUM_SCRIPT = Buffer.from("#!/bin/bash\nawk '{s+=$1} END {print s}' \"$1\"\n").toString("base64");
const PUBLIC_PART = "awk '{s+=$1} END {print s}' /app/numbers.txt > /app/sum.txt\n";
const HIDDEN_PART = `mkdir -p /app/bin && echo ${SUM_SCRIPT} | base64 -d > /app/bin/sum && chmod +x /app/bin/sum\n`;
const usage = { input: 1200, output: 80, cached: 200 };
const say = (commands: { keystrokes: string; duration: number }[], done = false) =>
  reply.json({ analysis: "a", plan: "p", commands, task_complete: done }, usage);

let llm: LoopbackLlm;
beforeAll(async () => {
  llm = await startLoopbackLlm();
});
afterAll(async () => {
  await llm.close();
});
// Each test scripts its own model; a trial that ended early must not hand its replies to the next.
beforeEach(() => llm.reset());
afterEach(() => llm.reset());

/** The fields a failed assertion should show, so a surprise names the outcome and its error. */
const seen = (t: TrialResult) => ({
  outcome: t.outcome,
  error: t.error,
  self_terminated: t.self_terminated,
  turns: t.usage.turns,
  continuation: t.continuation,
  infra_retries: t.infra_retries,
});

async function runTerminus(
  jobId: string,
  agentOptions: Record<string, string> = {},
  untilTimeout = false,
): Promise<{
  trial: TrialResult;
  dir: string;
}> {
  const store = await JobStore.open(tempDir("e2e"));
  try {
    const task = await fixtureTask("hello");
    const config = jobConfig([task], {
      job_id: jobId,
      agents: ["terminus"],
      models: ["openai-compatible:loop-model"],
      agent_options: { base_url: llm.url, ...agentOptions },
      until_timeout: untilTimeout,
      // The fixture's 30 s budget is for an idle machine; these tests are about turns, not time.
      timeout_multiplier: 4,
      // A terminal that would not start is the machine's fault, retried as in any real job; it
      // fails before the first model request, so the scripted replies stay in step.
      retries: 2,
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

// Each trial here is a real sandbox, tmux and verifier (the continue mode verifies every stop):
// on a loaded machine sharing two cores with the dataset checks that is well over a minute.
const SLOW = { timeout: 240_000 };

describe("terminus through the runner", SLOW, () => {
  it("solves a task to R = 1.0 and records usage, a trajectory and a recording", async () => {
    llm.push(
      say([{ keystrokes: PUBLIC_PART, duration: 1 }]),
      say([{ keystrokes: HIDDEN_PART, duration: 1 }], true),
      say([], true),
    );
    const { trial, dir } = await runTerminus("solve");
    expect(seen(trial)).toMatchObject({ outcome: "completed", error: null, self_terminated: true });
    expect(trial.reward).toBe(1);
    expect(trial.model).toBe("openai-compatible:loop-model");
    expect(trial.usage.turns).toBe(3);
    expect(trial.usage.input_tokens).toBe(3 * 1200);
    expect(trial.usage.cached_tokens).toBe(3 * 200);
    const trajectory = JSON.parse(readFileSync(join(dir, "agent", "trajectory.json"), "utf8"));
    expect(trajectory.steps.length).toBeGreaterThanOrEqual(3);
    const cast = readFileSync(join(dir, "agent", "recording.cast"), "utf8").split("\n");
    expect(JSON.parse(cast[0] ?? "{}").version).toBe(2);
    expect(cast.some((l) => l.includes("sum.txt"))).toBe(true);
  });

  it("records a false finish: completion claimed and confirmed with only the public part done", async () => {
    llm.push(say([{ keystrokes: PUBLIC_PART, duration: 1 }], true), say([], true));
    const { trial } = await runTerminus("false-finish");
    expect(trial.self_terminated).toBe(true);
    expect(trial.outcome).toBe("completed");
    expect(trial.reward).toBeCloseTo(0.2, 6);
  });

  it("stops a model that never finishes at its turn budget and still verifies its work", async () => {
    llm.push(say([{ keystrokes: PUBLIC_PART, duration: 0.2 }]));
    llm.setFallback(() => reply.json({ analysis: "", plan: "", commands: [], task_complete: false }, usage));
    const { trial, dir } = await runTerminus("budget", { max_turns: "4" });
    expect(trial.self_terminated).toBe(false);
    expect(trial.outcome).toBe("agent_timeout");
    expect(trial.usage.turns).toBe(4);
    expect(trial.reward).toBeCloseTo(0.2, 6);
    expect(existsSync(join(dir, "agent", "trajectory.json"))).toBe(true);
  });
});

describe("continue-until-timeout mode through the runner", SLOW, () => {
  it("sends a premature completion back with the failing public checks, then accepts a passing one", async () => {
    const start = llm.requests.length;
    llm.push(
      say([], true),
      say([], true), // confirmed: the public checks run on a copy of the workdir and fail
      say([{ keystrokes: PUBLIC_PART + HIDDEN_PART, duration: 1 }], true),
      say([], true),
    );
    const { trial, dir } = await runTerminus("continue", {}, true);
    expect(seen(trial)).toMatchObject({
      outcome: "completed",
      continuation: { self_terminations: 2, reentries: 1, reward_at_first_stop: 0 },
    });
    expect(trial.continuation?.first_stop_sec).toBeGreaterThan(0);
    expect(trial.reward).toBe(1);
    expect(trial.outcome).toBe("completed");
    expect(trial.self_terminated).toBe(true);
    // The model was told which public check failed, and nothing about hidden ones.
    const told = JSON.stringify(llm.requests.slice(start).map((r) => r.body.messages));
    expect(told).toContain("public checks do not pass yet");
    expect(told).toContain("public_sum");
    expect(told).not.toContain("hidden_stress");
    // Each declared completion was verified as its own record beside the trial.
    expect(existsSync(join(dir, "stops", "stop1", "verifier"))).toBe(true);
    expect(existsSync(join(dir, "stops", "stop2", "verifier"))).toBe(true);
  });

  it("lets an agent stop when the public checks pass, hidden failures and all (a false finish)", async () => {
    llm.push(say([{ keystrokes: PUBLIC_PART, duration: 1 }], true), say([], true));
    const { trial } = await runTerminus("continue-pass", {}, true);
    expect(seen(trial)).toMatchObject({
      outcome: "completed",
      continuation: { self_terminations: 1, reentries: 0 },
    });
    expect(trial.continuation?.reward_at_first_stop).toBeCloseTo(0.2, 6);
    expect(trial.reward).toBeCloseTo(0.2, 6);
    expect(trial.self_terminated).toBe(true);
  });

  it("runs an agent that never passes the public checks to its budget: a timeout, still verified", async () => {
    llm.push(say([], true), say([], true));
    llm.setFallback(() => reply.json({ analysis: "", plan: "", commands: [], task_complete: false }, usage));
    const { trial } = await runTerminus("continue-budget", { max_turns: "5" }, true);
    expect(seen(trial)).toMatchObject({
      outcome: "agent_timeout",
      continuation: { self_terminations: 1, reentries: 1, reward_at_first_stop: 0 },
    });
    expect(trial.outcome).toBe("agent_timeout");
    expect(trial.self_terminated).toBe(false);
    expect(trial.reward).toBe(0);
  });

  it("leaves the record empty when the mode is off", async () => {
    llm.push(say([], true), say([], true));
    const { trial } = await runTerminus("continue-off");
    expect(seen(trial)).toMatchObject({ outcome: "completed", self_terminated: true, continuation: null });
    expect(trial.budget_left_sec).toBeGreaterThan(0);
  });
});
