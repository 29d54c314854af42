import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/analysis/index.js";
import { type TrialResult, UserError } from "../../src/core/index.js";
import {
  buildJobConfig,
  checkJobChoices,
  getTrialKind,
  registerTrialKind,
  runJob,
} from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { loadTaskSet, registerTaskKind, type Task } from "../../src/task/index.js";
import { storedTrial } from "../support/stored-trials.js";
import { FIXTURES, jobConfig, tempDir } from "./helpers.js";

/**
 * The seam a world task goes through, with a kind made up for the test: "tally" tasks are JSON
 * files `*.tally.json` ({ "name", "goal" }); a tally trial "counts" to the seed modulo goal and
 * scores each step as a subtask. Both a Harbor task and tally tasks run in one job.
 */
function tallyTask(file: string): Task {
  const spec = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; goal?: unknown };
  if (typeof spec.name !== "string" || typeof spec.goal !== "number")
    throw new UserError(`${file}: name must be a string and goal a number`);
  return {
    kind: "tally",
    name: spec.name,
    dir: file,
    config: {} as Task["config"],
    instruction: `count to ${spec.goal}`,
    checksum: "t".repeat(64),
    rubric: { subtasks: [] } as unknown as Task["rubric"],
    paths: { environment: file, solution: file, tests: file, instruction: file, config: file },
    image: null,
    warnings: [],
  };
}

registerTaskKind({
  kind: "tally",
  claims: (p) => p.endsWith(".tally.json"),
  load: async (p) => [tallyTask(p)],
});
registerTrialKind({
  kind: "tally",
  agents: () => ["oracle", "counter"],
  run: async (p): Promise<TrialResult> => {
    const goal = Number(p.task.instruction.split(" ").at(-1));
    const reached = p.seed % goal;
    writeFileSync(join(p.trialDir, "tally.txt"), `${reached}\n`);
    return storedTrial({
      job_id: p.jobId,
      trial_id: p.trialId,
      task: {
        name: p.task.name,
        checksum: p.task.checksum,
        category: "tally",
        difficulty: null,
        path: p.task.dir,
      },
      agent: p.agent,
      model: p.model,
      attempt: p.attempt,
      seed: p.seed,
      self_terminated: true,
      reward: reached / goal,
      subtasks: Array.from({ length: goal }, (_, i) => ({
        id: `step_${i}`,
        weight: 1,
        kind: "binary" as const,
        visibility: "hidden" as const,
        score: i < reached ? 1 : 0,
        error: null,
        message: null,
      })),
    });
  },
});

describe("task kinds: a task that is not a Harbor folder runs through the same job", () => {
  it("loads a kind's files beside Harbor tasks, runs both in one job and stores both", async () => {
    const dir = tempDir("kinds");
    const a = join(dir, "a.tally.json");
    writeFileSync(a, JSON.stringify({ name: "tally-a", goal: 4 }));
    const { tasks, skipped } = await loadTaskSet([join(FIXTURES, "hello"), a]);
    expect(skipped).toEqual([]);
    expect(tasks.map((t) => [t.name, t.kind ?? "terminal"])).toEqual([
      ["hello", "terminal"],
      ["tally-a", "tally"],
    ]);
    const store = await JobStore.open(tempDir("kinds-jobs"));
    const config = jobConfig(tasks, { agents: ["oracle"] });
    const out = await runJob({ store, config, tasks, provider: getSandboxProvider("bwrap"), resume: false });
    const tally = out.trials.find((t) => t.task.name === "tally-a");
    const hello = out.trials.find((t) => t.task.name === "hello");
    expect(hello?.reward).toBe(1);
    expect(tally?.reward).toBe(((tally?.seed ?? 0) % 4) / 4);
    expect(tally?.subtasks).toHaveLength(4);
    const trialDir = store.trialDir(config.job_id, tally?.trial_id ?? "");
    expect(existsSync(join(trialDir, "result.json"))).toBe(true);
    expect(readFileSync(join(trialDir, "tally.txt"), "utf8")).toBe(`${(tally?.seed ?? 0) % 4}\n`);
    // The store and the summary see both kinds alike.
    const stored = await store.listTrials(config.job_id);
    expect(stored.map((t) => t.task.name).sort()).toEqual(["hello", "tally-a"]);
    expect(summarize(stored, { bootstrapSamples: 0 }).overall.pass095).toMatchObject({ n: 2 });
  });

  it("a broken file of a kind is skipped with its reason, as a broken task folder is", async () => {
    const bad = join(tempDir("kinds"), "b.tally.json");
    writeFileSync(bad, JSON.stringify({ name: 3 }));
    const { tasks, skipped } = await loadTaskSet([bad]);
    expect(tasks).toEqual([]);
    expect(skipped[0]?.reason).toBe(`${bad}: name must be a string and goal a number`);
  });

  it("refuses a trial kind registered twice and names the known kinds of a missing one", () => {
    expect(() =>
      registerTrialKind({ kind: "tally", agents: () => [], run: async () => Promise.reject(new Error("x")) }),
    ).toThrow(/already registered/);
    expect(() => getTrialKind("nope")).toThrow('no trial kind "nope" is registered (known: terminal, tally)');
  });

  it("takes an agent only its kind knows, and refuses it for a task of another kind", async () => {
    const a = join(tempDir("kinds"), "c.tally.json");
    writeFileSync(a, JSON.stringify({ name: "tally-c", goal: 2 }));
    const { tasks } = await loadTaskSet([join(FIXTURES, "hello"), a]);
    expect(() => checkJobChoices({ agents: ["counter"] })).not.toThrow();
    expect(() => checkJobChoices({ agents: ["no-such-agent"] })).toThrow(/unknown agent/);
    const tally = tasks.filter((t) => t.kind === "tally");
    expect(buildJobConfig({ tasks: tally, agents: ["counter", "oracle"] }).agents).toEqual([
      "counter",
      "oracle",
    ]);
    expect(() => buildJobConfig({ tasks, agents: ["counter"] })).toThrow(
      /agent counter cannot play terminal task hello/,
    );
  });
});
