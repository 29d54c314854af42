import { join, resolve } from "node:path";

/**
 * Which bundled world tasks the slow tests play. Playing a task (the scripted team, baselines,
 * world check) costs seconds, so those tests play a fixed, named sample rather than the whole
 * world-tasks/ folder, and adding tasks does not slow the suite. The whole set is loaded and
 * schema-checked by test/world/world-task-set.test.ts (cheap, no play), and checked in full by
 * `longhaul world check world-tasks/` and `npx tsx bench/world-check-set.ts` (docs/world-tasks.md).
 */
export const WORLD_TASKS_DIR = resolve(import.meta.dirname, "../../world-tasks");

/** The first three tasks: the tests that pin their exact runs (CCE counts, chat lines) use these. */
export const ORIGINAL_TASKS = ["bronze-arrows", "market-supply", "warden-hunt"] as const;

/**
 * The originals plus two later tasks that add what the originals lack: survival (two placed
 * wolves that hunt the team, nobody may fall, then a catch-and-cook chain: wolf-night) and a
 * brewing chain ending in a hand-over to a fighter (potion-satchel). Both are 3-agent tasks that
 * every member completes, with requests in chat.
 */
export const SAMPLE_TASKS = [...ORIGINAL_TASKS, "wolf-night", "potion-satchel"] as const;

export function taskFile(id: string): string {
  return join(WORLD_TASKS_DIR, `${id}.yaml`);
}

export const ORIGINAL_TASK_FILES: string[] = ORIGINAL_TASKS.map(taskFile);
export const SAMPLE_TASK_FILES: string[] = SAMPLE_TASKS.map(taskFile);
