import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { AgentContext } from "../../src/agents/types.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { parseTaskConfig } from "../../src/task/config.js";
import type { Task } from "../../src/task/types.js";

/** Harbor's defaults for every task.toml field (the fake task overrides a few). */
const DEFAULTS = parseTaskConfig("fake/task.toml", "");

export function fakeTask(instruction: string): Task {
  const dir = mkdtempSync(join(tmpdir(), "lh-task-"));
  return {
    name: "fixture",
    dir,
    instruction,
    checksum: "0".repeat(64),
    rubric: { subtasks: [], source: null },
    paths: {
      environment: join(dir, "environment"),
      solution: join(dir, "solution"),
      tests: join(dir, "tests"),
      instruction: join(dir, "instruction.md"),
      config: join(dir, "task.toml"),
    },
    config: {
      ...DEFAULTS,
      version: "1.0",
      task: { name: null, description: null },
      metadata: {
        category: "test",
        difficulty: "easy",
        expert_time_estimate_min: null,
        tags: [],
        author_name: null,
      },
      agent: { ...DEFAULTS.agent, timeout_sec: 60 },
      verifier: { ...DEFAULTS.verifier, timeout_sec: 60 },
      environment: {
        ...DEFAULTS.environment,
        cpus: 1,
        memory_mb: 1024,
        storage_mb: 1024,
        allow_internet: false,
        workdir: "/app",
        docker_image: null,
        build_timeout_sec: 60,
      },
      requires: { host_tools: [], nested_sandbox: false },
    },
    image: null,
    warnings: [],
  };
}

/**
 * A scratch pricing file so that costs in tests come from a known table, for the file that calls
 * this (at its top level): LONGHAUL_PRICING is given back as it was once the file's tests are done.
 */
export function usePricing(
  models: Record<string, { input: number; output: number; cached_input?: number }>,
): void {
  const path = join(mkdtempSync(join(tmpdir(), "lh-price-")), "pricing.json");
  writeFileSync(path, JSON.stringify({ models }));
  const was = process.env.LONGHAUL_PRICING;
  process.env.LONGHAUL_PRICING = path;
  afterAll(() => {
    if (was === undefined) delete process.env.LONGHAUL_PRICING;
    else process.env.LONGHAUL_PRICING = was;
  });
}

export interface CtxHandle {
  ctx: AgentContext;
  logs: string[];
  controller: AbortController;
}

export function agentContext(sandbox: Sandbox, model: string, options: Record<string, string>): CtxHandle {
  const logs: string[] = [];
  const controller = new AbortController();
  const instruction = "Create out.txt containing hello.";
  return {
    logs,
    controller,
    ctx: {
      task: fakeTask(instruction),
      sandbox,
      instruction,
      model,
      timeoutSec: 120,
      signal: controller.signal,
      logDir: mkdtempSync(join(tmpdir(), "lh-agent-log-")),
      log: (l) => logs.push(l),
      options,
    },
  };
}
