import { describe, expect, it } from "vitest";
import { listMutants, MIN_MUTANTS } from "../../src/task/index.js";
import { bundledTasks } from "./support/dataset-check.js";
import { DATASET_SAMPLE, DATASET_SAMPLE_MAX } from "./support/dataset-sample.js";

/**
 * The bundled dataset's rules, for every task. Its `task check` runs on a fixed sample
 * (dataset-sample.ts) in dataset-check-1 and -2.test.ts (bwrap) and dataset-docker.test.ts (a docker
 * sample); the CLI's `longhaul task check tasks` runs the same checks on every task and five seeds.
 */
const tasks = await bundledTasks();

describe("bundled dataset", () => {
  it("has at least 12 tasks covering the nine categories", () => {
    expect(tasks.length).toBeGreaterThanOrEqual(12);
    expect(new Set(tasks.map((t) => t.config.metadata.category)).size).toBeGreaterThanOrEqual(9);
  });

  it("samples a bounded set of real tasks, every category among them, for the suite's trials", () => {
    const byName = new Map(tasks.map((t) => [t.name, t]));
    expect(DATASET_SAMPLE.filter((n) => !byName.has(n))).toEqual([]);
    expect(new Set(DATASET_SAMPLE).size).toBe(DATASET_SAMPLE.length);
    expect(DATASET_SAMPLE.length).toBeLessThanOrEqual(DATASET_SAMPLE_MAX);
    const categories = new Set(tasks.map((t) => t.config.metadata.category));
    const sampled = new Set(DATASET_SAMPLE.map((n) => byName.get(n)?.config.metadata.category));
    expect([...categories].filter((c) => !sampled.has(c))).toEqual([]);
  });

  describe.each(tasks.map((t) => [t.name, t] as const))("%s", (_name, task) => {
    it("meets the dataset rules: ≥ 5 subtasks, public ≤ 20% and hidden ≥ 60% of weight, an expert estimate of 60–240 min, a 90-minute budget, its own Dockerfile", () => {
      const subtasks = task.rubric.subtasks;
      const total = subtasks.reduce((s, x) => s + x.weight, 0);
      const hidden = subtasks.filter((x) => x.visibility === "hidden").reduce((s, x) => s + x.weight, 0);
      const pub = subtasks.filter((x) => x.visibility === "public").reduce((s, x) => s + x.weight, 0);
      expect(subtasks.length).toBeGreaterThanOrEqual(5);
      expect(pub / total).toBeLessThanOrEqual(0.2);
      expect(hidden / total).toBeGreaterThanOrEqual(0.6);
      // Harbor builds the task's image from environment/Dockerfile (task harbor-check runs it so).
      expect(task.image?.dockerfile ?? null).not.toBeNull();
      // A multi-hour job for an expert, as the benchmark's tasks are.
      const expert = task.config.metadata.expert_time_estimate_min ?? 0;
      expect(expert).toBeGreaterThanOrEqual(60);
      expect(expert).toBeLessThanOrEqual(240);
      // The agent's budget is the benchmark's, the same for every task: 90 minutes.
      expect(task.config.agent.timeout_sec).toBe(5400);
    });

    it(`ships at least ${MIN_MUTANTS} mutants, each saying what it gets wrong`, () => {
      // Each one's R < 0.95 is proven by mutants.test.ts (a sample) and `task check` (all of them).
      const mutants = listMutants(task.paths.solution);
      expect(mutants.length).toBeGreaterThanOrEqual(MIN_MUTANTS);
      for (const m of mutants) expect(m.wrong, m.name).toMatch(/\S{3}/);
    });
  });

  it("has at least six tasks with episode subtasks (games, control loops, repeated audits)", () => {
    const episodic = tasks.filter((t) => t.rubric.subtasks.some((s) => s.kind === "episode"));
    expect(episodic.length, episodic.map((t) => t.name).join(", ")).toBeGreaterThanOrEqual(6);
  });

  it("uses all three subtask kinds across the dataset", () => {
    const kinds = new Set(tasks.flatMap((t) => t.rubric.subtasks.map((s) => s.kind)));
    expect([...kinds].sort()).toEqual(["binary", "continuous", "episode"]);
  });
});
