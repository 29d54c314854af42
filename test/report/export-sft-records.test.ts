import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AtifStep, Trajectory } from "../../src/agents/llm-loop/trajectory.js";
import { UserError } from "../../src/core/index.js";
import { exportSft } from "../../src/report/export-sft.js";
import { JobStore } from "../../src/store/index.js";
import { taskChecksum } from "../../src/task/index.js";
import { tempDir } from "../runner/helpers.js";
import { parseSftFile } from "../support/sft-schema.js";
import { storedJobConfig, storedTask, storedTrial } from "../support/stored-trials.js";

/** Trials recorded straight into a store, with trajectories shaped as real model servers answer. */
const dir = tempDir("export-sft-records");
const jobsDir = join(dir, "jobs");
const taskDir = join(dir, "task");
const JOB = "ids";

const step = (n: number, s: Omit<AtifStep, "step_id" | "timestamp">): AtifStep => ({
  step_id: n,
  timestamp: "2026-01-01T00:00:00Z",
  ...s,
});
const exec = (id: string, command: string) => ({
  tool_call_id: id,
  function_name: "exec",
  arguments: { command },
});

function trajectory(steps: AtifStep[]): Trajectory {
  return {
    schema_version: "ATIF-v1.4",
    session_id: "s",
    agent: { name: "tools", version: "1", model_name: "x:m" },
    steps,
    final_metrics: {
      total_prompt_tokens: 0,
      total_completion_tokens: 0,
      total_cached_tokens: 0,
      total_cost_usd: 0,
      total_steps: steps.length,
    },
  };
}

/**
 * A server that numbers each answer's calls from 1 (ids repeat across turns) and one that gives
 * two calls of a turn the same id: each call still has its own result in the trajectory.
 */
const reusedIds = trajectory([
  step(1, { source: "system", message: "You are in a Linux box." }),
  step(2, { source: "user", message: "Task: count the lines" }),
  step(3, {
    source: "agent",
    message: "",
    tool_calls: [exec("call_1", "ls"), exec("call_2", "wc -l a")],
    observation: {
      results: [
        { source_call_id: "call_1", content: "a\n" },
        { source_call_id: "call_2", content: "3 a\n" },
      ],
    },
  }),
  step(4, {
    source: "agent",
    message: "Two checks.",
    tool_calls: [exec("dup", "echo first"), exec("dup", "echo second")],
    observation: {
      results: [
        { source_call_id: "dup", content: "first\n" },
        { source_call_id: "dup", content: "second\n" },
      ],
    },
  }),
  step(5, {
    source: "agent",
    message: "",
    tool_calls: [{ tool_call_id: "call_1", function_name: "finish", arguments: { summary: "3" } }],
    observation: { results: [{ source_call_id: "call_1", content: "finished" }] },
  }),
]);

/** A scripted agent's trajectory: no user step, so the task's instruction stands in for one. */
const scripted = trajectory([
  step(1, {
    source: "agent",
    message: "",
    tool_calls: [exec("k1", "make")],
    observation: { results: [{ source_call_id: "k1", content: "built" }] },
  }),
]);

beforeAll(async () => {
  mkdirSync(join(taskDir, "tests"), { recursive: true });
  writeFileSync(join(taskDir, "instruction.md"), "Count the lines of /app/a.\n");
  writeFileSync(join(taskDir, "tests", "test.sh"), "exit 0\n");
  const checksum = await taskChecksum(taskDir);
  const store = await JobStore.open(jobsDir);
  try {
    await store.createJob(storedJobConfig({ job_id: JOB, agents: ["tools"], models: ["x:m"] }));
    for (const [name, traj] of [
      ["reused", reusedIds],
      ["scripted", scripted],
    ] as const) {
      const t = storedTrial({
        job_id: JOB,
        trial_id: `${name}__tools__a1`,
        task: { ...storedTask(name, "data", taskDir), checksum },
        agent: "tools",
        model: "x:m",
        attempt: 1,
        seed: 42,
        outcome: "completed",
        self_terminated: true,
        reward: 1,
      });
      await store.recordTrial(t);
      const agentDir = join(store.trialDir(JOB, t.trial_id), "agent");
      mkdirSync(agentDir, { recursive: true });
      writeFileSync(join(agentDir, "trajectory.json"), JSON.stringify(traj));
    }
    // A tool that cut its output between the halves of an emoji, and a model that did the same.
    await store.createJob(storedJobConfig({ job_id: "text", agents: ["tools"], models: ["x:m"] }));
    const cut = storedTrial({
      job_id: "text",
      trial_id: "cut__tools__a1",
      task: { ...storedTask("cut", "data", taskDir), checksum },
      agent: "tools",
      model: "x:m",
      attempt: 1,
      outcome: "completed",
      reward: 1,
    });
    await store.recordTrial(cut);
    const cutDir = join(store.trialDir("text", cut.trial_id), "agent");
    mkdirSync(cutDir, { recursive: true });
    const lone = trajectory([
      step(1, { source: "user", message: "Task: show the log" }),
      step(2, {
        source: "agent",
        message: "Reading \ud83d",
        tool_calls: [exec("a", "tail log")],
        observation: {
          results: [{ source_call_id: "a", content: "ok \ud83d\ude00 then \ude00 and \ud83d" }],
        },
      }),
    ]);
    writeFileSync(join(cutDir, "trajectory.json"), JSON.stringify(lone));
  } finally {
    await store.close();
  }
});

describe("export sft records", () => {
  it("gives every call its own id and its own result, in both conventions, byte for byte the same twice", async () => {
    for (const format of ["openai", "hf"] as const) {
      const out = join(dir, `ids-${format}.jsonl`);
      const r = await exportSft({ jobsDir, job: JOB, out, format });
      expect(r.exported).toBe(2);
      const text = readFileSync(out, "utf8");
      const reused = parseSftFile(text, format).find((x) => x.metadata.task === "reused");
      const msgs = reused?.messages ?? [];
      expect(msgs.map((m) => [m.role, m.role === "tool" ? m.tool_call_id : null, m.content])).toEqual([
        ["system", null, "You are in a Linux box."],
        ["user", null, "Task: count the lines"],
        ["assistant", null, format === "openai" ? null : ""],
        ["tool", "call_1", "a\n"],
        ["tool", "call_2", "3 a\n"],
        ["assistant", null, "Two checks."],
        ["tool", "call_3", "first\n"],
        ["tool", "call_4", "second\n"],
        ["assistant", null, format === "openai" ? null : ""],
        ["tool", "call_5", "finished"],
      ]);
      expect(reused?.metadata).toMatchObject({ assistant_turns: 3, tool_calls: 5, lineage_depth: 0 });
      await exportSft({ jobsDir, job: JOB, out, format, force: true });
      expect(readFileSync(out, "utf8")).toBe(text);
    }
  });

  it("does not take the instruction or lineage depth of a task folder changed since the run", async () => {
    const before = join(dir, "before.jsonl");
    await exportSft({ jobsDir, job: JOB, out: before, format: "openai" });
    const s = parseSftFile(readFileSync(before, "utf8"), "openai").find(
      (x) => x.metadata.task === "scripted",
    );
    expect(s?.messages[0]).toEqual({ role: "user", content: "Count the lines of /app/a.\n" });
    // The folder now holds another version of the task: its checksum is no longer the run's.
    writeFileSync(join(taskDir, "instruction.md"), "Something else entirely.\n");
    try {
      const after = join(dir, "after.jsonl");
      const r = await exportSft({ jobsDir, job: JOB, out: after, format: "openai" });
      expect(r.skipped).toEqual({ "no user step and no task instruction": 1 });
      const [kept, ...rest] = parseSftFile(readFileSync(after, "utf8"), "openai");
      expect(rest).toEqual([]);
      expect(kept?.metadata).toMatchObject({ task: "reused", lineage_depth: null });
      expect(readFileSync(after, "utf8")).not.toContain("Something else");
    } finally {
      writeFileSync(join(taskDir, "instruction.md"), "Count the lines of /app/a.\n");
    }
  });

  it("refuses an --out that is not a regular file, and writes through a symbolic link", async () => {
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const err = await exportSft({ jobsDir, job: JOB, out: fifo, format: "openai", force: true }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    expect(String(err)).toMatch(/pipe: cannot write \(not a regular file\)/);
    // The pipe is still a pipe: it was not replaced by a regular file.
    expect(lstatSync(fifo).isFIFO()).toBe(true);

    const target = join(dir, "target.jsonl");
    writeFileSync(target, "old\n");
    const link = join(dir, "link.jsonl");
    symlinkSync(target, link);
    const r = await exportSft({ jobsDir, job: JOB, out: link, format: "hf", force: true });
    expect(r.out).toBe(target);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(parseSftFile(readFileSync(link, "utf8"), "hf")).toHaveLength(2);
  });

  it("replaces lone surrogates, which UTF-8 readers refuse, and keeps whole characters", async () => {
    const out = join(dir, "text.jsonl");
    await exportSft({ jobsDir, job: "text", out, format: "openai" });
    const text = readFileSync(out, "utf8");
    expect(text).not.toMatch(/\\ud[89a-f]/i);
    const [rec] = parseSftFile(text, "openai");
    expect(rec?.messages.map((m) => m.content)).toEqual([
      "Task: show the log",
      "Reading \uFFFD",
      "ok \u{1F600} then \uFFFD and \uFFFD",
    ]);
  });
});
