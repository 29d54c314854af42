import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { JobConfig } from "../../src/store/index.js";
import { loadTask } from "../../src/task/index.js";
import type { Task } from "../../src/task/types.js";

export const FIXTURES = resolve(import.meta.dirname, "../fixtures/tasks");

export async function fixtureTask(name: string): Promise<Task> {
  return loadTask(join(FIXTURES, name));
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `longhaul-test-${prefix}-`));
}

export function jobConfig(tasks: Task[], overrides: Partial<JobConfig> = {}): JobConfig {
  return {
    schema_version: 1,
    job_id: "job-under-test",
    created_at: new Date().toISOString(),
    tasks: tasks.map((t) => ({ name: t.name, path: t.dir, checksum: t.checksum })),
    agents: ["oracle"],
    models: [null],
    attempts: 1,
    concurrency: 1,
    timeout_multiplier: 1,
    retries: 0,
    seed: 12345,
    sandbox: "bwrap",
    agent_options: {},
    ...overrides,
  };
}
