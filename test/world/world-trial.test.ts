import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareJobs, summarize } from "../../src/analysis/index.js";
import type { TrialResult } from "../../src/core/index.js";
import { renderComparisonTable } from "../../src/report/render-comparison.js";
import { renderMarkdown } from "../../src/report/render-markdown.js";
import { buildJobConfig, runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { createViewerApp } from "../../src/server/index.js";
import { JobStore } from "../../src/store/index.js";
import { loadTaskSet, type Task } from "../../src/task/index.js";
import { createWorld } from "../../src/world/build/world.js";
import { runFileSchema } from "../../src/world/engine/session.js";
import { checkRunReplay, loadWorldTask } from "../../src/world/task/index.js";
import { registerWorldKinds } from "../../src/world/trial/register.js";
import { WORLD_RUN_FILE } from "../../src/world/trial/world-trial.js";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";
import { type LoopbackLlm, reply, startLoopbackLlm } from "../support/loopback-llm.js";
import { ORIGINAL_TASK_FILES, WORLD_TASKS_DIR } from "./task-sample.js";

/**
 * World tasks through the one runner: loaded as tasks of kind "world", played by team agents as
 * trials, stored, summarized, reported and shown by the viewer like terminal trials.
 */
const WORLD_TASKS = WORLD_TASKS_DIR;
registerWorldKinds();

describe("world tasks run as trials of the one runner", () => {
  let tasks: Task[];
  let store: JobStore;
  const jobsDir = tempDir("world-jobs");
  let trials: TrialResult[];
  let jobId: string;

  beforeAll(async () => {
    const set = await loadTaskSet(ORIGINAL_TASK_FILES);
    expect(set.skipped).toEqual([]);
    tasks = set.tasks;
    store = await JobStore.open(jobsDir);
    const config = buildJobConfig({ tasks, agents: ["oracle", "nop"], seed: 11, concurrency: 2 });
    jobId = config.job_id;
    const out = await runJob({ store, config, tasks, provider: getSandboxProvider("bwrap"), resume: false });
    trials = out.trials;
  }, 120_000);

  it("loads every example as a world task whose checkpoints are its subtasks", () => {
    expect(tasks.map((t) => [t.name, t.kind])).toEqual([
      ["bronze-arrows", "world"],
      ["market-supply", "world"],
      ["warden-hunt", "world"],
    ]);
    for (const t of tasks) {
      const spec = loadWorldTask(t.dir);
      expect(t.rubric.subtasks.map((s) => [s.id, s.weight])).toEqual(
        spec.checkpoints.map((c) => [c.id, c.weight]),
      );
    }
  });

  it("the oracle team reaches success and every checkpoint; the idle team neither", () => {
    for (const t of tasks) {
      const oracle = trials.find((x) => x.task.name === t.name && x.agent === "oracle");
      const nop = trials.find((x) => x.task.name === t.name && x.agent === "nop");
      expect(oracle?.outcome, t.name).toBe("completed");
      expect(oracle?.world?.success, `${t.name}: ${oracle?.world?.success_detail}`).toBe(true);
      expect(oracle?.reward).toBe(1);
      expect(oracle?.subtasks.every((s) => s.score === 1)).toBe(true);
      expect(oracle?.self_terminated, t.name).toBe(true);
      expect(nop?.self_terminated).toBe(false);
      expect(nop?.world?.success).toBe(false);
      expect(nop?.reward ?? 1).toBeLessThan(1);
      expect(nop?.world?.rounds).toBe(loadWorldTask(t.dir).max_rounds);
      // Named and timed as terminal trials are: the task's header, seconds to the millisecond.
      expect(oracle?.task).toEqual({
        name: t.name,
        checksum: t.checksum,
        category: t.config.metadata.category,
        difficulty: t.config.metadata.difficulty,
        path: t.dir,
      });
      for (const sec of Object.values(oracle?.timing ?? {})) {
        if (typeof sec === "number") expect(Math.round(sec * 1000) / 1000).toBe(sec);
      }
      // Every trial keeps its replayable run beside result.json.
      const dir = store.trialDir(jobId, oracle?.trial_id ?? "");
      expect(existsSync(join(dir, "result.json"))).toBe(true);
      const run = runFileSchema.parse(JSON.parse(readFileSync(join(dir, WORLD_RUN_FILE), "utf8")));
      expect(run.calls.length).toBeGreaterThan(0);
      // …and it replays: the same calls from the task's round-0 state give the same final state.
      expect(checkRunReplay(createWorld(), run).verdict, t.name).toBe("identical");
    }
  });

  it("the store, the summary and the report count SR as Pass@1 and PSR as R", async () => {
    const stored = await store.listTrials(jobId);
    expect(stored).toHaveLength(6);
    const s = summarize(stored, { bootstrapSamples: 0, groupBy: ["agent"] });
    const byAgent = new Map(s.groups.map((g) => [g.label, g]));
    expect(byAgent.get("oracle")?.pass095).toMatchObject({ k: 3, n: 3 });
    expect(byAgent.get("nop")?.pass095).toMatchObject({ k: 0, n: 3 });
    expect(renderMarkdown(s)).toContain("world trials (6)");
  });

  it("stores each world trial's causal contribution; report and compare print it with denominators", async () => {
    const stored = await store.listTrials(jobId);
    for (const t of stored) {
      const c = t.world?.cce;
      expect(c, t.trial_id).toBeDefined();
      const calls = t.world?.agents.reduce((n, a) => n + a.actions, 0);
      expect(c?.actions, t.trial_id).toBe(calls);
      if (t.agent === "nop") {
        // A failed run has no witnesses: CCE 0, and nothing to replay.
        expect([c?.contributing, c?.cce, c?.counterfactual]).toEqual([0, 0, null]);
      } else {
        expect(c?.cce ?? 0, t.task.name).toBeGreaterThan(0);
        expect(c?.counterfactual?.inside.necessary ?? 0, t.task.name).toBeGreaterThan(0);
      }
    }
    const s = summarize(stored, { bootstrapSamples: 0, groupBy: ["agent"] });
    const oracle = s.worldCce?.groups.find((g) => g.label === "oracle");
    const nop = s.worldCce?.groups.find((g) => g.label === "nop");
    expect(nop?.macro).toMatchObject({ value: 0, n: 3 });
    expect(oracle?.successes).toBe(3);
    const md = renderMarkdown(s);
    const pooled = oracle?.pooled;
    expect(md).toContain(`${pooled?.value?.toFixed(3)} (${pooled?.num}/${pooled?.den})`);
    expect(md).toContain("causal contribution per trial");
    const cmp = compareJobs(
      stored.filter((t) => t.agent === "nop"),
      stored.filter((t) => t.agent === "oracle"),
      { bootstrapSamples: 0 },
    );
    expect(renderComparisonTable(cmp)).toContain(
      `pooled CCE ${pooled?.value?.toFixed(3)} (${pooled?.num}/${pooled?.den})`,
    );
  });

  it("the viewer shows a world trial's verdict, team and checkpoints", async () => {
    const viewer = await createViewerApp({ jobsDir });
    try {
      const oracle = trials.find((x) => x.agent === "oracle" && x.task.name === "warden-hunt");
      const res = await viewer.app.request(`/jobs/${jobId}/trials/${oracle?.trial_id ?? ""}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<b id="world-success">yes</b>');
      expect(html).toContain('id="world-team"');
      expect(html).toContain('<span id="world-modifiers">none</span>');
      const cce = oracle?.world?.cce;
      expect(html).toContain(`CCE ${cce?.cce.toFixed(3)} (${cce?.contributing}/${cce?.actions} calls`);
      for (const s of oracle?.subtasks ?? []) expect(html).toContain(s.id);
      const job = await viewer.app.request(`/jobs/${jobId}`);
      expect(job.status).toBe(200);
      const jobHtml = await job.text();
      for (const t of trials) expect(jobHtml).toContain(t.trial_id);
    } finally {
      await viewer.close();
    }
  });
});

describe("an LLM team, driven by a loopback model server, plays a 3-agent task through the runner", () => {
  let llm: LoopbackLlm;
  beforeAll(async () => {
    llm = await startLoopbackLlm();
  });
  afterAll(async () => {
    await llm.close();
  });

  it("completes warden-hunt with one tool call per turn, its tokens and cost recorded", async () => {
    const { tasks } = await loadTaskSet([join(WORLD_TASKS, "warden-hunt.yaml")]);
    const spec = loadWorldTask(join(WORLD_TASKS, "warden-hunt.yaml"));
    expect(spec.team).toHaveLength(3);
    // The "model" plays the reference: it reads who it is from the system prompt and the round
    // from the observation's tick, and answers with that agent's reference call as a tool call.
    llm.setFallback((req) => {
      const msgs = req.body.messages as { role: string; content: unknown }[];
      const system = String(msgs.find((m) => m.role === "system")?.content ?? "");
      const agent = /You are (\S+),/.exec(system)?.[1] ?? "";
      const lastUser = [...msgs].reverse().find((m) => m.role === "user");
      const tick = Number(/tick (\d+)/.exec(String(lastUser?.content ?? ""))?.[1] ?? -1);
      const call = spec.reference?.[tick]?.find((c) => c.agent === agent)?.call as
        | { tool: string; args: unknown }
        | undefined;
      return reply.tools([{ name: call?.tool ?? "wait", arguments: call?.args ?? {} }], {
        input: 500,
        output: 20,
      });
    });
    const llmJobs = tempDir("world-llm");
    const store = await JobStore.open(llmJobs);
    const config = buildJobConfig({
      tasks,
      agents: ["llm"],
      models: ["openai-compatible:loop-model"],
      baseUrl: llm.url,
      seed: 3,
    });
    const out = await runJob({ store, config, tasks, provider: getSandboxProvider("bwrap"), resume: false });
    const t = out.trials[0];
    expect(t?.outcome).toBe("completed");
    expect(t?.world?.success, t?.world?.success_detail).toBe(true);
    expect(t?.reward).toBe(1);
    const calls = t?.world?.agents.reduce((n, a) => n + a.actions, 0) ?? 0;
    expect(t?.usage.turns).toBe(calls);
    expect(t?.usage.input_tokens).toBe(500 * calls);
    expect(t?.usage.output_tokens).toBe(20 * calls);
    expect(t?.usage.parse_errors).toBe(0);
    // The trial shows in the viewer: its verdict and the replay of the model's game.
    const viewer = await createViewerApp({ jobsDir: llmJobs });
    try {
      const page = await viewer.app.request(`/jobs/${config.job_id}/trials/${t?.trial_id ?? ""}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<b id="world-success">yes</b>');
      expect(html).toContain("loop-model");
      const replay = await viewer.app.request(
        `/api/jobs/${config.job_id}/trials/${t?.trial_id ?? ""}/world-replay`,
      );
      expect(replay.status).toBe(200);
      const view = (await replay.json()) as { verdict: string; rounds: number; calls: unknown[] };
      expect(view.verdict).toBe("identical");
      expect(view.rounds).toBe(t?.world?.rounds);
      expect(view.calls.length).toBeGreaterThanOrEqual(calls);
    } finally {
      await viewer.close();
    }
  });
});

describe("longhaul run on world tasks", () => {
  it("runs a world task file with a team agent and refuses that agent for a Harbor task", async () => {
    const jobs = tempDir("world-cli");
    const file = join(WORLD_TASKS, "warden-hunt.yaml");
    const ok = await runCli(["run", file, "--agent", "random", "--seed", "5", "--jobs-dir", jobs, "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    const out = JSON.parse(ok.stdout) as {
      job_id: string;
      trials: { task: string; agent: string; success?: boolean; reward: number }[];
    };
    expect(out.trials.map((t) => [t.task, t.agent, typeof t.success])).toEqual([
      ["warden-hunt", "random", "boolean"],
    ]);
    const stored = JSON.parse(
      readFileSync(join(jobs, out.job_id, "warden-hunt__random__a1", "result.json"), "utf8"),
    ) as TrialResult;
    expect(stored.world?.max_rounds).toBe(loadWorldTask(file).max_rounds);
    expect(stored.reward).toBe(out.trials[0]?.reward);
    const harbor = resolve(import.meta.dirname, "../fixtures/tasks/hello");
    const bad = await runCli(["run", file, harbor, "--agent", "random", "--jobs-dir", tempDir("world-cli")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("agent random cannot play terminal task hello");
  });

  it("plays with a team agent a plugin registered", async () => {
    const dir = tempDir("world-plugin");
    const plug = join(dir, "team-plugin.mjs");
    writeFileSync(
      plug,
      `export function register(api) {
  api.registerTeamAgent("quitters", {
    description: "every agent declares completion at once",
    create: () => ({ act: async () => ({ tool: "complete", args: { summary: "done" } }) }),
  });
}
`,
    );
    const file = join(WORLD_TASKS, "warden-hunt.yaml");
    const r = await runCli([
      "--plugin",
      plug,
      "run",
      file,
      "--agent",
      "quitters",
      "--jobs-dir",
      dir,
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { job_id: string; trials: { trial_id: string; success?: boolean }[] };
    expect(out.trials[0]?.success).toBe(false);
    const stored = JSON.parse(
      readFileSync(join(dir, out.job_id, out.trials[0]?.trial_id ?? "", "result.json"), "utf8"),
    ) as TrialResult;
    // Every agent completed in round 0: the run ended at once, by the team's own choice, after
    // one round played (round 0, where the calls were made).
    expect(stored.self_terminated).toBe(true);
    expect(stored.world?.rounds).toBe(1);
    expect(stored.world?.agents.map((a) => a.actions)).toEqual([1, 1, 1]);
  });
});
