import { join } from "node:path";
import { bundledTasksDir } from "../../../src/runner/package-root.js";
import { loadTasks } from "../../../src/task/index.js";
import type { Task } from "../../../src/task/types.js";

/**
 * The bundled tasks whose trials the suite runs (`task check` in dataset-check-*.test.ts, one
 * mutant each in mutants.test.ts, the generator sample in generator-sweep.test.ts): a fixed,
 * named sample, so that adding tasks to `tasks/` does not lengthen `npm test`. Every bundled task
 * still gets the suite's static checks (dataset.test.ts, independent-graders, grader-trust,
 * check-shared-code); the full check of every task is `longhaul task check tasks/` and the full
 * generator sweep `npx tsx bench/generator-sweep.ts` (docs/dataset.md#checking-the-dataset).
 * At most one or two per category; a task joins only by editing this list.
 */
export const DATASET_SAMPLE = [
  "blob-count",
  "grid-puzzle-solver",
  "invoice-reconcile",
  "lander-pilot",
  "loan-schedule",
  "log-digest",
  "meter-billing",
  "metric-table-repro",
  "orbit-propagate",
  "perm-audit",
  "ridge-cv-repro",
  "station-qc",
] as const;

/** The suite's bound on the sample: about 14 s of trials a task on two workers. */
export const DATASET_SAMPLE_MAX = 16;

/** The sampled bundled tasks, sorted by name. */
export async function sampledBundledTasks(): Promise<Task[]> {
  const tasks = await loadTasks(DATASET_SAMPLE.map((n) => join(bundledTasksDir(), n)));
  return tasks.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
