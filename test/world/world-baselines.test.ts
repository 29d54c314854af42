import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TrialResult, UserError } from "../../src/core/index.js";
import { buildJobConfig, runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { loadTaskSet, type Task } from "../../src/task/index.js";
import { createWorld } from "../../src/world/build/world.js";
import type { Observation } from "../../src/world/engine/observe.js";
import { type RunFile, runFileSchema } from "../../src/world/engine/session.js";
import { ROLES } from "../../src/world/model/roles.js";
import type { WorldEvent } from "../../src/world/model/types.js";
import {
  checkRunReplay,
  loadWorldTask,
  runTaskSpec,
  setupWorldTask,
  verifyWorldRun,
} from "../../src/world/task/index.js";
import { registerTeamAgent } from "../../src/world/team/registry.js";
import { renderObservation } from "../../src/world/team/render-observation.js";
import { getWorldModifier } from "../../src/world/trial/modifiers.js";
import { registerWorldKinds } from "../../src/world/trial/register.js";
import { WORLD_RUN_FILE } from "../../src/world/trial/world-trial.js";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";
import { reply, startLoopbackLlm } from "../support/loopback-llm.js";
import { ORIGINAL_TASK_FILES, WORLD_TASKS_DIR } from "./task-sample.js";

/** The shared-plan, oracle-comm and merged baselines (world modifiers). */
const WORLD_TASKS = WORLD_TASKS_DIR;
registerWorldKinds();

/** What the chat probe saw, one list of observations per trial. */
const seen: Observation[][] = [];

// Chats in rounds 0 and 1, then waits: the result of each chat shows in the agent's next
// observation. In round 0 the lumberjack walks away instead (the first move of market-supply's
// reference), so its teammates no longer see it.
registerTeamAgent({
  name: "chat-probe",
  description: "chats in rounds 0 and 1 and records what it sees (test only)",
  create: () => {
    const rec: Observation[] = [];
    seen.push(rec);
    return {
      act: async (id, obs, round) => {
        rec.push(obs);
        if (round === 0 && id === "lumberjack") return { tool: "move_to", args: { x: 554, y: 380 } };
        return round <= 1 ? { tool: "chat", args: { message: `plan ${round}` } } : { tool: "wait", args: {} };
      },
    };
  },
});

const world = createWorld();
let tasks: Task[];

async function runWorld(
  taskName: string,
  agent: string,
  modifiers: string | null,
  baseUrl?: string,
): Promise<{ trial: TrialResult | undefined; run: RunFile }> {
  const store = await JobStore.open(tempDir("world-baselines"));
  try {
    const chosen = tasks.filter((t) => t.name === taskName);
    const config = buildJobConfig({
      tasks: chosen,
      agents: [agent],
      seed: 3,
      ...(baseUrl === undefined ? {} : { models: ["openai-compatible:loop-model"], baseUrl }),
      ...(modifiers === null ? {} : { agentOptions: { world_modifiers: modifiers } }),
    });
    const out = await runJob({
      store,
      config,
      tasks: chosen,
      provider: getSandboxProvider("bwrap"),
      resume: false,
    });
    const trial = out.trials[0];
    const file = join(store.trialDir(config.job_id, trial?.trial_id ?? ""), WORLD_RUN_FILE);
    return { trial, run: runFileSchema.parse(JSON.parse(readFileSync(file, "utf8"))) };
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  tasks = (await loadTaskSet(ORIGINAL_TASK_FILES)).tasks;
});

type Result = NonNullable<Observation["lastResult"]>;

describe("shared-plan", () => {
  it("chat works in round 0 and is refused from round 1 on; transfers stay allowed; the run replays", async () => {
    const { trial, run } = await runWorld("market-supply", "chat-probe", "shared-plan");
    expect(trial?.world?.modifiers).toEqual(["shared-plan"]);
    expect(run.rules.sharedPlan).toBe(true);
    const chats = run.events.filter((e) => e.type === "action" && e.data.tool === "chat");
    const byTick = (t: number) => chats.filter((e) => e.tick === t);
    expect(byTick(0).length).toBeGreaterThan(0);
    expect(byTick(0).every((e) => e.data.ok === true)).toBe(true);
    expect(byTick(1).length).toBeGreaterThan(byTick(0).length);
    expect(byTick(1).every((e) => e.data.ok === false)).toBe(true);
    // The agent sees why: a tool error with the no-communication code naming round 0.
    const results = (seen.at(-1) ?? []).flatMap((o) => (o.lastResult === null ? [] : [o.lastResult]));
    const refused = results.filter((r): r is Extract<Result, { ok: false }> => !r.ok && r.tool === "chat");
    expect(refused.length).toBe(byTick(1).length);
    expect(refused[0]?.error).toMatchObject({ code: "no_communication" });
    expect(refused[0]?.error.message).toMatch(/only in round 0/);
    // The round-0 plan reaches the teammates.
    expect(seen.at(-1)?.some((o) => o.messages.some((m) => m.text === "plan 0"))).toBe(true);
    expect(checkRunReplay(world, run).verdict).toBe("identical");
  });

  it("the oracle's hand-overs still work under shared-plan (it chats never)", async () => {
    const { trial } = await runWorld("market-supply", "oracle", "shared-plan");
    expect(trial?.world?.success).toBe(true);
  });
});

describe("oracle-comm", () => {
  it("an observation carries a far-away teammate's inventory only with the modifier", async () => {
    const plain = await runWorld("market-supply", "chat-probe", null);
    const plainSeen = seen.at(-1) ?? [];
    const { trial, run } = await runWorld("market-supply", "chat-probe", "oracle-comm");
    const withSeen = seen.at(-1) ?? [];
    expect(trial?.world?.modifiers).toEqual(["oracle-comm"]);
    expect(plainSeen.some((o) => o.teamView !== undefined)).toBe(false);
    // The miner in round 1: the lumberjack has walked away, out of view, axe in hand.
    const at = (obs: Observation[]) => obs.find((o) => o.tick === 1 && o.agent === "miner") as Observation;
    const miner = at(withSeen);
    expect(miner.nearby.some((t) => t.id === "lumberjack")).toBe(false);
    const jack = miner.teamView?.teammates.find((t) => t.id === "lumberjack");
    const far = Math.max(
      Math.abs((jack?.position.x ?? 0) - miner.position.x),
      Math.abs((jack?.position.y ?? 0) - miner.position.y),
    );
    expect(far).toBeGreaterThan(run.rules.viewRadius);
    expect(jack?.inventory.some((i) => i.item === "bronze_axe")).toBe(true);
    expect(miner.teamView?.teammates.map((t) => t.id)).toEqual(["lumberjack", "fisher", "cook", "merchant"]);
    const plainMiner = at(plainSeen);
    expect(plainMiner.nearby.some((t) => t.id === "lumberjack")).toBe(false);
    expect(JSON.stringify(plainMiner)).not.toContain("bronze_axe");
    // The team's chat, whoever it was for, and the text the model reads.
    expect(miner.teamView?.chat.map((m) => m.text)).toContain("plan 0");
    expect(renderObservation(miner)).toMatch(
      /- lumberjack \(lumberjack\) at \(\d+, \d+\).*inventory: .*bronze_axe/,
    );
    expect(renderObservation(miner)).toContain("Latest team chat:");
    expect(renderObservation(plainMiner)).not.toContain("Your team");
    // Only what the agents are shown changes: the same calls make the same game.
    expect(run.events).toEqual(plain.run.events);
    expect(checkRunReplay(world, run).verdict).toBe("identical");
  });
});

describe("merged", () => {
  it("the random team plays market-supply as one agent with the best skills and all items; the run replays", async () => {
    const { trial, run } = await runWorld("market-supply", "random", "merged");
    expect(trial?.outcome).toBe("completed");
    expect(trial?.world?.modifiers).toEqual(["merged"]);
    expect(trial?.world?.agents.map((a) => [a.id, a.role])).toEqual([["merged", "merged"]]);
    expect(trial?.world?.agents[0]?.actions).toBeGreaterThan(0);
    expect(new Set(run.calls.map((c) => c.agent))).toEqual(new Set(["merged"]));
    expect(run.agents.map((a) => a.id)).toEqual(["merged"]);
    expect(checkRunReplay(world, run).verdict).toBe("identical");
    // The round-0 state rebuilt from the recorded task: one agent with, per skill, the best level
    // of any member, and every member's kit summed.
    const spec = runTaskSpec(world, run);
    expect(spec?.params.merged).toBe(true);
    const plainSpec = loadWorldTask(join(WORLD_TASKS, "market-supply.yaml"), world);
    const start = setupWorldTask(spec ?? plainSpec, world).state;
    expect(start.agents.length).toBe(1);
    const agent = start.agents.get(0);
    const roles = plainSpec.team.map((m) => ROLES.find((r) => r.id === m.role));
    const best: Record<string, number> = {};
    for (const r of roles)
      for (const [k, v] of Object.entries(r?.skills ?? {})) best[k] = Math.max(best[k] ?? 0, v ?? 0);
    expect(Object.fromEntries(Object.entries(agent?.skills ?? {}).map(([k, v]) => [k, v.level]))).toEqual(
      best,
    );
    expect(best.woodcutting).toBe(40);
    expect(best.mining).toBe(40);
    expect(best.cooking).toBe(40);
    const items = new Map<string, number>();
    for (const id of agent?.inventory ?? []) {
      const lot = start.lots.get(id);
      if (lot !== undefined) items.set(lot.item, (items.get(lot.item) ?? 0) + lot.qty);
    }
    const coins = roles.reduce((n, r) => n + (r?.items.find((i) => i.item === "coins")?.qty ?? 0), 0);
    expect(items.get("coins")).toBe(coins);
    expect(coins).toBeGreaterThan(100);
    for (const tool of ["bronze_axe", "bronze_pickaxe", "fishing_rod"]) expect(items.get(tool)).toBe(1);
    // It may use every tool a member may, and starts where the first member starts.
    expect(agent?.allowedTools).toEqual(
      expect.arrayContaining(["harvest_resource", "craft_item", "attack_entity"]),
    );
    const plainStart = setupWorldTask(plainSpec, world).state;
    const lumberjack = plainStart.agents.get(plainStart.agentIndex.lumberjack ?? -1);
    expect([agent?.x, agent?.y]).toEqual([lumberjack?.x, lumberjack?.y]);
  });

  it("checkpoints naming a member look at the merged agent; a hand-over counts what it made itself", () => {
    const plain = loadWorldTask(join(WORLD_TASKS, "market-supply.yaml"), world);
    const spec = { ...plain, params: { ...plain.params, merged: true as const } };
    const start = setupWorldTask(spec, world).state;
    const shrimp = (agent: string): WorldEvent => ({
      seq: 0,
      tick: 1,
      agent,
      type: "harvested",
      action: null,
      data: { item: "raw_shrimp", qty: 3 },
    });
    const reached = (v: ReturnType<typeof verifyWorldRun>) =>
      v.checkpoints.filter((c) => c.reached).map((c) => c.id);
    expect(reached(verifyWorldRun(spec, world, start, [shrimp("merged")]))).toEqual([
      "shrimp_caught",
      "shrimp_handed",
    ]);
    // Unmerged, the same event by the fisher catches the shrimp but hands nothing over.
    const plainStart = setupWorldTask(plain, world).state;
    expect(reached(verifyWorldRun(plain, world, plainStart, [shrimp("fisher")]))).toEqual(["shrimp_caught"]);
    expect(reached(verifyWorldRun(spec, world, start, []))).toEqual([]);
    const caught = verifyWorldRun(spec, world, start, [shrimp("merged")]).checkpoints[1];
    expect(caught?.detail).toBe("merged (as fisher) gathered 3/3 raw_shrimp");
  });

  it("the team agent is told of one member with every goal and document", () => {
    const members = getWorldModifier("merged").members?.(
      [
        { id: "a", role: "miner", goal: "Mine.", document: "# Miner" },
        { id: "b", role: "cook", goal: "Cook.", document: "" },
      ],
      null,
    );
    expect(members).toEqual([
      {
        id: "merged",
        role: "merged",
        goal: "As a (miner): Mine.\nAs b (cook): Cook.",
        document: "## As a (miner)\n\n# Miner",
      },
    ]);
  });

  it("the oracle cannot play merged: a user error naming the modifier, before a job is made", () => {
    const some = tasks.filter((t) => t.name === "market-supply");
    const make = (agent: string) =>
      buildJobConfig({ tasks: some, agents: [agent], agentOptions: { world_modifiers: "no-docs,merged" } });
    expect(() => make("oracle")).toThrow(UserError);
    expect(() => make("oracle")).toThrow(/team oracle cannot play under the merged modifier/);
    expect(make("random").agent_options.world_modifiers).toBe("no-docs,merged");
  });

  it("longhaul world run --team oracle --modifier merged is a user error (exit 2) naming the modifier", async () => {
    const task = join(WORLD_TASKS, "market-supply.yaml");
    const r = await runCli([
      "world",
      "run",
      task,
      "--team",
      "oracle",
      "--modifier",
      "merged",
      "--jobs-dir",
      tempDir("merged-cli"),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("team oracle cannot play under the merged modifier");
  });
});

describe("the LLM team under merged and oracle-comm (a loopback model)", () => {
  const llmServer = startLoopbackLlm();
  afterAll(async () => (await llmServer).close());

  it("merged: one agent, told it plays alone with every goal; oracle-comm: the prompt shows the team", async () => {
    const llm = await llmServer;
    llm.setFallback(() => reply.tools([{ name: "complete", arguments: { summary: "done" } }]));
    const { trial } = await runWorld("market-supply", "llm", "merged", llm.url);
    expect(trial?.outcome).toBe("completed");
    expect(trial?.world?.agents.map((a) => [a.id, a.actions])).toEqual([["merged", 1]]);
    const sys = (i: number) => {
      const msgs = llm.requests[i]?.body.messages as Array<{ role: string; content: unknown }>;
      return { system: String(msgs[0]?.content), user: String(msgs.at(-1)?.content) };
    };
    expect(llm.requests).toHaveLength(1);
    const { system } = sys(0);
    expect(system).toContain("You are merged (merged), playing alone");
    expect(system).toContain("As fisher (fisher): Catch three shrimp and give them to the cook.");
    expect(system).toContain("## As merchant (merchant)");
    expect(system).not.toContain("Teammates act in turn");
    await runWorld("market-supply", "llm", "oracle-comm", llm.url);
    // Five agents each complete at once; the first (lumberjack) sees the other four in its prompt.
    expect(llm.requests).toHaveLength(6);
    expect(sys(1).user).toContain("Your team, wherever they are:");
    expect(sys(1).user).toMatch(/- merchant \(merchant\) at \(530, 386\)/);
  });
});
