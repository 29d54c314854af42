import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InfraError } from "../../src/core/index.js";
import { runJob } from "../../src/runner/index.js";
import { attemptsMessage } from "../../src/runner/run-planned-trial.js";
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

describe("runJob on the bwrap sandbox", () => {
  it("scores oracle at 1.0 and nop at 0 with per-subtask detail, and stores both", async () => {
    store = await JobStore.open(tempDir("jobs"));
    const task = await fixtureTask("hello");
    const config = jobConfig([task], { agents: ["oracle", "nop"], concurrency: 2 });
    const out = await runJob({ store, config, tasks: [task], provider: bwrap, resume: false });
    expect(out.trials).toHaveLength(2);
    const oracle = out.trials.find((t) => t.agent === "oracle");
    const nop = out.trials.find((t) => t.agent === "nop");
    expect(oracle?.outcome).toBe("completed");
    expect(oracle?.reward).toBe(1);
    expect(oracle?.subtasks.map((s) => [s.id, s.weight, s.kind, s.visibility])).toEqual([
      ["public_sum", 1, "binary", "public"],
      ["hidden_stress", 3, "continuous", "hidden"],
      ["episodes", 1, "episode", "hidden"],
    ]);
    expect(nop?.reward).toBe(0);
    expect(nop?.self_terminated).toBe(true);
    // The hidden seed is recorded and is the same for every agent on one task and attempt, so
    // both faced the same hidden cases; files are on disk.
    expect(oracle?.seed).toBe(nop?.seed);
    expect(oracle?.stress_digest ?? null).toBe(nop?.stress_digest ?? null);
    const dir = store.trialDir(config.job_id, oracle?.trial_id ?? "");
    expect(JSON.parse(readFileSync(join(dir, "result.json"), "utf8")).reward).toBe(1);
    expect(existsSync(join(dir, "verifier", "logs", "reward-details.json"))).toBe(true);
    expect(existsSync(join(store.jobDir(config.job_id), "config.json"))).toBe(true);
  });

  it("runs many trials at once on one job signal without Node's listener-leak warning", async () => {
    store = await JobStore.open(tempDir("jobs"));
    const task = await fixtureTask("hello");
    const config = jobConfig([task], { agents: ["oracle"], attempts: 12, concurrency: 12 });
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(w.name);
    };
    process.on("warning", onWarning);
    try {
      const signal = new AbortController().signal;
      const out = await runJob({ store, config, tasks: [task], provider: bwrap, resume: false, signal });
      expect(out.trials.map((t) => t.outcome)).toEqual(Array(12).fill("completed"));
      // Warnings are emitted on the next tick.
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((n) => n === "MaxListenersExceededWarning")).toEqual([]);
  });

  it("gives nothing to an agent that writes its own reward.json or reads /tests and /solution", async () => {
    store = await JobStore.open(tempDir("jobs"));
    const task = await fixtureTask("hello");
    const cheat = [
      "mkdir -p /logs/verifier",
      `echo '{"public_sum":1,"hidden_stress":1,"episodes":1,"reward":1}' > /logs/verifier/reward.json`,
      "echo 1 > /logs/verifier/reward.txt",
      "cat /tests/test.sh; ls /solution /longhaul",
      'echo "seed=[$LONGHAUL_SEED]"',
    ].join("; ");
    const config = jobConfig([task], { agents: ["shell"], agent_options: { cmd: cheat } });
    const out = await runJob({ store, config, tasks: [task], provider: bwrap, resume: false });
    const t = out.trials[0];
    expect(t?.reward).toBe(0);
    expect(t?.outcome).toBe("completed");
    const agentDir = join(store.trialDir(config.job_id, t?.trial_id ?? ""), "agent");
    const stdout = readFileSync(join(agentDir, "shell.stdout.txt"), "utf8");
    const stderr = readFileSync(join(agentDir, "shell.stderr.txt"), "utf8");
    expect(stdout).toContain("seed=[]");
    expect(stdout).not.toContain("python3");
    expect(stderr).toMatch(/\/tests\/test.sh: No such file/);
    expect(stderr).toMatch(/\/solution.*No such file/);
  });

  it("verifies an agent that timed out and counts its partial work", async () => {
    store = await JobStore.open(tempDir("jobs"));
    const task = await fixtureTask("slow");
    const config = jobConfig([task]);
    const t0 = Date.now();
    const out = await runJob({ store, config, tasks: [task], provider: bwrap, resume: false });
    const t = out.trials[0];
    expect(t?.outcome).toBe("agent_timeout");
    expect(t?.self_terminated).toBe(false);
    expect(t?.reward).toBeCloseTo(1 / 5, 6); // the public subtask only
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  it("reports a verifier that writes nothing as grading_error, never a silent 0", async () => {
    store = await JobStore.open(tempDir("jobs"));
    const task = await fixtureTask("broken");
    const out = await runJob({
      store,
      config: jobConfig([task]),
      tasks: [task],
      provider: bwrap,
      resume: false,
    });
    const t = out.trials[0];
    expect(t?.outcome).toBe("grading_error");
    expect(t?.reward).toBeNull();
    expect(t?.error?.message).toMatch(/exited with 3/);
  });

  it("retries infrastructure failures and records infra_error when they persist", async () => {
    store = await JobStore.open(tempDir("jobs"));
    const task = await fixtureTask("hello");
    let creates = 0;
    const flaky = (failures: number): SandboxProvider => ({
      name: "flaky",
      check: async () => undefined,
      create: async (spec) => {
        creates += 1;
        if (creates <= failures) throw new InfraError("sandbox would not start (injected)");
        return bwrap.create(spec);
      },
    });
    const ok = await runJob({
      store,
      config: jobConfig([task], { retries: 2, job_id: "flaky-ok" }),
      tasks: [task],
      provider: flaky(2),
      resume: false,
    });
    expect(ok.trials[0]?.reward).toBe(1);
    expect(ok.trials[0]?.infra_retries).toBe(2);

    creates = 0;
    const bad = await runJob({
      store,
      config: jobConfig([task], { retries: 1, job_id: "flaky-bad" }),
      tasks: [task],
      provider: flaky(10),
      resume: false,
    });
    expect(bad.trials[0]?.outcome).toBe("infra_error");
    expect(bad.trials[0]?.reward).toBeNull();
    expect(creates).toBe(2);
    // One cause, said once.
    expect(bad.trials[0]?.error?.message).toBe("sandbox would not start (injected)");
  });

  it("names each attempt's reason when the failures differ", () => {
    expect(attemptsMessage(["a", "a"])).toBe("a");
    expect(attemptsMessage(["tmux did not come up", "model server refused"])).toBe(
      "attempt 1: tmux did not come up; attempt 2: model server refused",
    );
    expect(attemptsMessage([])).toBe("unknown infrastructure failure");
  });
});
