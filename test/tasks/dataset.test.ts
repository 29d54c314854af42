import { describe, expect, it } from "vitest";
import { bundledTasksDir, checkTask } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { loadTasks } from "../../src/task/index.js";

/**
 * `longhaul task check` over the whole bundled dataset, as CI runs it (bwrap over each task's
 * image): for every task, on two
 * seeds, oracle R = 1.0, nop ≤ 0.05, partial strictly inside (0.2, 0.8), distinct stress inputs per
 * seed, public weight ≤ 20%, and a deterministic verifier (oracle, nop and partial each re-run on
 * the first seed): 9 trials per task, to keep the suite within its time budget. The CLI's
 * `longhaul task check tasks` runs the same checks on five seeds.
 */
const tasks = await loadTasks([bundledTasksDir()]);
const provider = getSandboxProvider("bwrap");
const SEEDS = [1000, 8919];

describe("bundled dataset", () => {
  it("has at least 12 tasks covering the nine categories", () => {
    expect(tasks.length).toBeGreaterThanOrEqual(12);
    expect(new Set(tasks.map((t) => t.config.metadata.category)).size).toBeGreaterThanOrEqual(9);
  });

  describe.concurrent.each(tasks.map((t) => [t.name, t] as const))("%s", (_name, task) => {
    it("passes task check", { timeout: 600_000 }, async () => {
      const result = await checkTask(task, { provider, seeds: SEEDS });
      const failures = result.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
      expect(failures).toEqual([]);
      expect(result.checks.some((c) => c.name.startsWith("partial"))).toBe(true);
      expect(result.checks.some((c) => c.name.startsWith("different seeds"))).toBe(true);
      const determinism = result.checks.find((c) => c.name.startsWith("verifier deterministic"));
      expect(determinism?.detail).toBe(`seed ${SEEDS[0]} twice for oracle, nop, partial`);
    });

    it("meets the dataset rules: ≥ 5 subtasks, hidden ≥ 60% of weight, expert time ≥ 30 min", () => {
      const subtasks = task.rubric.subtasks;
      const total = subtasks.reduce((s, x) => s + x.weight, 0);
      const hidden = subtasks.filter((x) => x.visibility === "hidden").reduce((s, x) => s + x.weight, 0);
      expect(subtasks.length).toBeGreaterThanOrEqual(5);
      expect(hidden / total).toBeGreaterThanOrEqual(0.6);
      expect(task.config.metadata.expert_time_estimate_min ?? 0).toBeGreaterThanOrEqual(30);
    });
  });

  // The same image in Docker containers: a fixed sample here (one task, one seed); the full sweep
  // over every task is `longhaul task check tasks --sandbox docker` (docs/benchmarks.md).
  it("passes task check under docker too (log-digest, one seed)", { timeout: 900_000 }, async () => {
    const task = tasks.find((t) => t.name === "log-digest");
    if (!task) throw new Error("log-digest missing");
    const result = await checkTask(task, { provider: getSandboxProvider("docker"), seeds: [SEEDS[0] ?? 1] });
    expect(result.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
    expect(result.checks.find((c) => c.name.startsWith("oracle"))?.ok).toBe(true);
  });

  it("uses all three subtask kinds across the dataset", () => {
    const kinds = new Set(tasks.flatMap((t) => t.rubric.subtasks.map((s) => s.kind)));
    expect([...kinds].sort()).toEqual(["binary", "continuous", "episode"]);
  });
});
