import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { buildJobConfig, runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { loadTaskSet, type Task } from "../../src/task/index.js";
import { createWorld } from "../../src/world/build/world.js";
import { type RunFile, runFileSchema } from "../../src/world/engine/session.js";
import {
  agentDocument,
  checkRunReplay,
  loadWorldTask,
  verifyWorldRun,
  worldTaskSession,
} from "../../src/world/task/index.js";
import { getTeamAgent } from "../../src/world/team/registry.js";
import { goalKey, goalsOf } from "../../src/world/team/scripted/goals.js";
import { formatLine, type Line, parseMessage } from "../../src/world/team/scripted/protocol.js";
import { teamTaskView } from "../../src/world/team/task-view.js";
import { playWorldTask } from "../../src/world/trial/play.js";
import { registerWorldKinds } from "../../src/world/trial/register.js";
import { WORLD_RUN_FILE } from "../../src/world/trial/world-trial.js";
import { tempDir } from "../runner/helpers.js";
import { SAMPLE_TASK_FILES, SAMPLE_TASKS, WORLD_TASKS_DIR } from "./task-sample.js";

/**
 * The scripted team (the reference solver) plays the sample of bundled world tasks (task-sample.ts)
 * through the runner: it plans from the predicates and the role documents, never from the
 * reference calls. The whole set is played by `longhaul world check world-tasks/`.
 */
const WORLD_TASKS = WORLD_TASKS_DIR;
registerWorldKinds();
const world = createWorld();

describe("the scripted team solves the sampled world tasks", () => {
  let tasks: Task[];
  let store: JobStore;
  let trials: TrialResult[];
  let jobId: string;

  beforeAll(async () => {
    tasks = (await loadTaskSet(SAMPLE_TASK_FILES)).tasks;
    store = await JobStore.open(tempDir("world-scripted"));
    const config = buildJobConfig({ tasks, agents: ["scripted"], seed: 5 });
    jobId = config.job_id;
    trials = (await runJob({ store, config, tasks, provider: getSandboxProvider("bwrap"), resume: false }))
      .trials;
  }, 60_000);
  afterAll(async () => {
    await store.close();
  });

  const runOf = (t: TrialResult): RunFile =>
    runFileSchema.parse(
      JSON.parse(readFileSync(join(store.trialDir(jobId, t.trial_id), WORLD_RUN_FILE), "utf8")),
    );

  it("reaches success and every checkpoint (SR 1, PSR 1) within the budget, every agent done", () => {
    expect(trials.map((t) => t.task.name).sort()).toEqual([...SAMPLE_TASKS].sort());
    for (const t of trials) {
      expect(t.outcome, t.task.name).toBe("completed");
      expect(t.world?.success, `${t.task.name}: ${t.world?.success_detail}`).toBe(true);
      expect(t.reward, t.task.name).toBe(1);
      expect(t.self_terminated, t.task.name).toBe(true);
      expect(t.world?.rounds ?? 99).toBeLessThan(t.world?.max_rounds ?? 0);
    }
  });

  it("talks in the protocol's lines and hands items over; its runs replay", () => {
    for (const t of trials) {
      const run = runOf(t);
      const chats = run.calls.flatMap((c) => {
        const call = c.call as { tool: string; args: { message?: string } };
        return call.tool === "chat" ? [call.args.message ?? ""] : [];
      });
      // Every line it says is one a teammate parses back.
      for (const text of chats) expect(parseMessage(text).length, text).toBe(text.split(";").length);
      expect(
        chats.some((m) => m.startsWith("take ") || m.startsWith("need ")),
        t.task.name,
      ).toBe(true);
      expect(
        run.events.some((e) => e.type === "transferred"),
        t.task.name,
      ).toBe(true);
      expect(checkRunReplay(world, run).verdict, t.task.name).toBe("identical");
    }
  });

  it("asks for what nobody can bring and for places it does not know", () => {
    const said = (name: string): string[] => {
      const t = trials.find((x) => x.task.name === name) as TrialResult;
      return runOf(t).calls.map((c) => JSON.stringify(c.call));
    };
    // No teammate of the cook catches shrimp: the request goes out, then the cook buys them.
    expect(said("warden-hunt").some((c) => c.includes("need 2 raw_shrimp for cook"))).toBe(true);
    // Only the merchant's document places the Greenvale smith: the miner asks, the merchant answers.
    const market = said("market-supply");
    expect(market.some((c) => c.includes("where greenvale_smith"))).toBe(true);
    expect(market.some((c) => c.includes("greenvale_smith at (538,388)"))).toBe(true);
  });
});

describe("the scripted team's planning", () => {
  it("plays without the reference calls and the same way every time", async () => {
    const spec = loadWorldTask(join(WORLD_TASKS, "bronze-arrows.yaml"), world);
    const play = async (): Promise<{ digest: string; success: boolean }> => {
      const session = worldTaskSession(spec, world);
      const team = getTeamAgent("scripted").create({
        reference: [],
        seed: 1,
        options: {},
        members: spec.team.map((m) => ({
          id: m.id,
          role: m.role,
          goal: m.goal,
          document: agentDocument(spec, world, m.id),
        })),
        model: null,
        signal: new AbortController().signal,
        log: () => undefined,
        task: teamTaskView(spec, session.world, session.state, session.roles),
      });
      await session.runAsync((id, obs, round) => team.act(id, obs, round));
      const v = verifyWorldRun(spec, session.world, session.state, session.events);
      return { digest: session.toRunFile(0).finalDigest, success: v.success };
    };
    const a = await play();
    expect(a.success).toBe(true);
    expect((await play()).digest).toBe(a.digest);
  });

  it("counts an item handed over and then worn as received, so the wearer completes", async () => {
    // The smith hands the shield over and completes at once (no "gave" line); the guard puts it on.
    // Held nowhere, worn in a slot: still received, so the guard stops waiting for it.
    const spec = loadWorldTask(join(WORLD_TASKS, "kiteshield-vigil.yaml"), world);
    const r = await playWorldTask(spec, world, { team: "scripted", seed: 1 });
    expect(r.verdict.success).toBe(true);
    expect(r.rounds).toBeLessThan(spec.max_rounds);
  });

  it("derives goals from the predicates and names what it cannot plan", () => {
    const spec = loadWorldTask(join(WORLD_TASKS, "bronze-arrows.yaml"), world);
    const { goals, unplanned } = goalsOf({
      success: { all: [spec.success, { not: { all_alive: true } }] },
      checkpoints: spec.checkpoints,
      start: () => ({ x: 1, y: 2 }),
      runId: (id) => id,
      kindOf: (m) => m,
      merged: false,
    });
    expect(goals.map(goalKey)).toContain("deliver 15 bronze_arrowheads to fletcher");
    // The team-wide "crafted 15 bronze_arrow" is covered by the fletcher's own goal.
    expect(goals.filter((g) => g.kind === "craft" && g.item === "bronze_arrow")).toEqual([
      { kind: "craft", item: "bronze_arrow", qty: 15, agent: "fletcher" },
    ]);
    expect(unplanned).toEqual(["not (…)"]);
  });

  it("refuses to play without the task view", () => {
    expect(() =>
      getTeamAgent("scripted").create({
        reference: [],
        seed: 1,
        options: {},
        members: [],
        model: null,
        signal: new AbortController().signal,
        log: () => undefined,
      }),
    ).toThrow(/world tasks only/);
  });

  it("formats and parses its chat lines", () => {
    const lines: Line[] = [
      { kind: "need", item: "copper_ore", qty: 2, to: "smith", at: { x: 520, y: 383 } },
      { kind: "take", key: "deliver 2 copper_ore to smith" },
      { kind: "where", npc: "greenvale_smith" },
      { kind: "place", npc: "greenvale_smith", at: { x: 538, y: 388 } },
      { kind: "done", key: "kill 1 east_warden" },
      { kind: "gave", item: "copper_ore", qty: 2, to: "smith" },
    ];
    expect(parseMessage(lines.map(formatLine).join("; "))).toEqual(lines);
    expect(parseMessage("hello there")).toEqual([]);
  });
});
