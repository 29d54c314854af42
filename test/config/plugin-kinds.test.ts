import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadPlugins } from "../../src/plugins.js";
import {
  getModelProvider,
  getWorldTool,
  listSandboxProviders,
  listWorldTools,
} from "../../src/registries.js";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";
import { Harness, testRole } from "../world/kit.js";

// The kinds a plugin registers that config-file.test.ts does not cover (agents, report formats,
// transforms) and world-trial.test.ts does not (team agents): a sandbox provider that a job then
// runs in, a model provider that a job's model check then knows, and a world tool that `step`
// dispatches. One plugin file (test/fixtures/plugins/kinds.mjs) registers all three.

const PLUGIN = resolve(import.meta.dirname, "../fixtures/plugins/kinds.mjs");
const work = tempDir("plugin-kinds");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ENV = { ...process.env, CI: "true", LONGHAUL_CONFIG: "", LONGHAUL_SANDBOX: "", PLUGGED_API_KEY: "" };

describe("a plugin's sandbox provider", () => {
  it("is what `run --sandbox NAME` runs the trial in", async () => {
    const jobs = join(work, "jobs");
    const log = join(work, "sandboxes.log");
    const r = await runCli(
      [
        ...["--plugin", PLUGIN, "run", join(FIXTURES, "hello"), "--agent", "oracle"],
        ...["--sandbox", "counted", "--jobs-dir", jobs, "--job", "counted", "--json"],
      ],
      { env: { ...ENV, COUNTED_SANDBOX_LOG: log } },
    );
    expect(r.code, r.stderr).toBe(0);
    const out = z
      .object({ trials: z.array(z.object({ outcome: z.string(), reward: z.number().nullable() })) })
      .parse(JSON.parse(r.stdout));
    expect(out.trials).toEqual([expect.objectContaining({ outcome: "completed", reward: 1 })]);
    // The trial's sandboxes came from the plugin's provider, not from bwrap directly.
    expect(readFileSync(log, "utf8").split("\n").filter(Boolean).length).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it("is unknown without the plugin, before a job folder exists", async () => {
    const jobs = join(work, "jobs-none");
    const r = await runCli(
      ["run", join(FIXTURES, "hello"), "--agent", "oracle", "--sandbox", "counted", "--jobs-dir", jobs],
      { env: ENV },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown sandbox provider "counted"');
    expect(existsSync(jobs)).toBe(false);
  });
});

describe("a plugin's model provider", () => {
  it("is listed by `models` and checked by `run` before a job folder exists", async () => {
    const jobs = join(work, "jobs-model");
    const [models, run] = await Promise.all([
      runCli(["--plugin", PLUGIN, "models", "--json"], { env: ENV }),
      runCli(
        [
          ...["--plugin", PLUGIN, "run", join(FIXTURES, "hello"), "--agent", "terminus"],
          ...["--model", "plugged:m1", "--jobs-dir", jobs],
        ],
        { env: ENV },
      ),
    ]);
    expect(models.code, models.stderr).toBe(0);
    const catalog = z
      .object({ providers: z.array(z.object({ name: z.string(), description: z.string() })) })
      .parse(JSON.parse(models.stdout));
    expect(catalog.providers.find((p) => p.name === "plugged")?.description).toBe(
      "a model provider from a plugin",
    );
    const plain = await runCli(["models", "--json"], { env: ENV });
    expect(plain.stdout).not.toContain('"plugged"');
    // The provider is known (no "unknown model provider"); its missing key is what stops the run.
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("provider plugged: no API key; set PLUGGED_API_KEY");
    expect(existsSync(jobs)).toBe(false);
  });
});

describe("plugins loaded in process", () => {
  it("register a sandbox provider, a model provider and a world tool that step dispatches", async () => {
    expect(getWorldTool("wave_at")).toBeUndefined();
    await loadPlugins([{ spec: PLUGIN, baseDir: work }]);
    expect(listSandboxProviders()).toContainEqual({
      name: "counted",
      description: "bwrap, counting its sandboxes",
    });
    expect(getModelProvider("plugged").name).toBe("plugged");
    expect(listWorldTools().map((t) => t.name)).toContain("wave_at");
    // An agent whose allowed tools include the plugin's tool calls it through step like a built-in.
    const h = new Harness(
      [
        { id: "a", role: "t_all" },
        { id: "b", role: "t_all" },
      ],
      [testRole("t_all", { attack: 10 })],
    );
    const idx = h.state.agentIndex.a ?? 0;
    const a = h.agent("a");
    h.state = {
      ...h.state,
      agents: h.state.agents.set(idx, { ...a, allowedTools: [...a.allowedTools, "wave_at"] }),
    };
    expect(h.call("a", "wave_at", { to: "b" })).toEqual({ ok: true, tool: "wave_at", message: "waved at b" });
    expect(h.events.some((e) => e.type === "waved" && e.data.to === "b")).toBe(true);
    const bad = h.call("a", "wave_at", { to: "b", loud: true });
    expect(!bad.ok && bad.error.code).toBe("invalid_args");
    const denied = h.call("b", "wave_at", { to: "a" });
    expect(!denied.ok && denied.error.code).toBe("tool_not_allowed");
  });
});
