import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
import { createWorld } from "../../src/world/build/world.js";
import { loadWorldTask } from "../../src/world/task/load.js";
import { mergedRole } from "../../src/world/task/merge.js";
import { agentDocument, setupWorldTask } from "../../src/world/task/setup.js";
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

describe("a plugin's world tool in a world task", () => {
  // bronze-arrows with the plugin's tool given to the lumberjack, who waves at the fletcher first.
  const source = readFileSync(resolve(import.meta.dirname, "../../world-tasks/bronze-arrows.yaml"), "utf8");
  const dir = join(work, "world-tasks");
  mkdirSync(dir, { recursive: true });
  const text = source
    .replace("id: bronze-arrows", "id: bronze-arrows-waving")
    .replace("    role: lumberjack\n", "    role: lumberjack\n    tools: [wave_at]\n")
    .replace(
      "reference:\n",
      "reference:\n  - - { agent: lumberjack, call: { tool: wave_at, args: { to: fletcher } } }\n",
    );
  writeFileSync(join(dir, "waving.yaml"), text);

  it("is given to one member by the task file, used by its reference and played by the oracle team", async () => {
    const jobs = join(work, "jobs-world");
    const [check, run] = await Promise.all([
      runCli(["--plugin", PLUGIN, "world", "check", dir], { env: ENV }),
      runCli(
        [
          "--plugin",
          PLUGIN,
          "run",
          dir,
          "--agent",
          "oracle",
          "--jobs-dir",
          jobs,
          "--job",
          "waving",
          "--json",
        ],
        { env: ENV },
      ),
    ]);
    expect(check.code, check.stderr).toBe(0);
    expect(run.code, run.stderr).toBe(0);
    const out = z
      .object({ trials: z.array(z.object({ outcome: z.string(), reward: z.number().nullable() })) })
      .parse(JSON.parse(run.stdout));
    expect(out.trials).toEqual([expect.objectContaining({ outcome: "completed", reward: 1 })]);
    const events = readFileSync(
      join(
        jobs,
        "waving",
        readdirSync(join(jobs, "waving")).find((f) => f.startsWith("bronze")) ?? "",
        "world-run.json",
      ),
      "utf8",
    );
    expect(events).toContain('"wave_at"');
  }, 120_000);

  it("is refused without the plugin, naming the file, the path and the line", async () => {
    const r = await runCli(["world", "check", dir], { env: ENV });
    // A task that does not load is bad input (exit 2), named with its file, field and line.
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(
      /waving\.yaml: team\[0\]\.tools\[0\] \(line \d+\): unknown world tool "wave_at" \(built in or registered by a plugin before the task loads\)/,
    );
  });

  it("is in the member's role document, and only in that member's", async () => {
    // Loaded once per process (a second, different definition of a name is refused).
    if (getWorldTool("wave_at") === undefined) await loadPlugins([{ spec: PLUGIN, baseDir: work }]);
    const spec = loadWorldTask(join(dir, "waving.yaml"));
    const world = createWorld();
    expect(agentDocument(spec, world, "lumberjack")).toContain(
      "## Tools this task gives you\n- wave_at: Wave at one teammate (a plugin's tool).",
    );
    expect(agentDocument(spec, world, "fletcher")).not.toContain("wave_at");
    const setup = setupWorldTask(spec, world);
    const allowed = (id: string): readonly string[] =>
      setup.state.agents.get(setup.state.agentIndex[id] ?? -1)?.allowedTools ?? [];
    expect(allowed("lumberjack")).toContain("wave_at");
    expect(allowed("fletcher")).not.toContain("wave_at");
    // Under the merged baseline the one agent may use every member's tools, the plugin's too.
    expect(mergedRole(spec).tools).toContain("wave_at");
  });
});
