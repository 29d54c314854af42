import { describe, expect, it } from "vitest";
import { checkMutants, MUTANT_MAX_REWARD } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { listMutants } from "../../src/task/index.js";
import { SEEDS } from "./support/dataset-check.js";
import { sampledBundledTasks } from "./support/dataset-sample.js";

/**
 * A fixed sample of the bundled tasks' mutants: for each sampled task (dataset-sample.ts) one mutant, picked by SAMPLE, on the
 * first seed, with the grader stopping once R < 0.95 is certain (lh.py's LONGHAUL_STOP_BELOW). The
 * full proof, every mutant on five seeds with full grading, is `longhaul task check --mutants-only`
 * (docs/dataset.md#mutants); changing SAMPLE samples other mutants.
 */
const SAMPLE = 1;

const provider = getSandboxProvider("bwrap");
const tasks = await sampledBundledTasks();

describe.concurrent("bundled mutants, a fixed sample", () => {
  it.each(tasks.map((t, i) => [t.name, t, i] as const))(
    "%s: the sampled mutant scores R < 0.95",
    { timeout: 300_000 },
    async (_name, task, i) => {
      const mutants = listMutants(task.paths.solution);
      const chosen = mutants[(SAMPLE + i) % mutants.length];
      if (!chosen) throw new Error(`${task.name} ships no mutants`);
      const r = await checkMutants(task, {
        provider,
        seeds: [SEEDS[0]],
        names: [chosen.name],
        stop: "always",
      });
      expect(r.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
      const [m] = r.mutants;
      expect(m?.name).toBe(chosen.name);
      expect(m?.rewards[0]).toBeLessThan(MUTANT_MAX_REWARD);
      expect(m?.caughtBy.length).toBeGreaterThan(0);
    },
  );
});
