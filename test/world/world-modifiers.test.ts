import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type TrialResult, UserError } from "../../src/core/index.js";
import { buildJobConfig, runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { loadTaskSet, type Task } from "../../src/task/index.js";
import { createWorld } from "../../src/world/build/world.js";
import type { Observation } from "../../src/world/engine/observe.js";
import { type RunFile, runFileSchema } from "../../src/world/engine/session.js";
import { checkRunReplay, loadWorldTask } from "../../src/world/task/index.js";
import { registerTeamAgent } from "../../src/world/team/registry.js";
import type { TeamMember } from "../../src/world/team/types.js";
import { NEUTRAL_DOCUMENT, randomSpawns } from "../../src/world/trial/builtin-modifiers.js";
import { getWorldModifier, parseWorldModifiers } from "../../src/world/trial/modifiers.js";
import { registerWorldKinds } from "../../src/world/trial/register.js";
import { WORLD_RUN_FILE } from "../../src/world/trial/world-trial.js";
import { tempDir } from "../runner/helpers.js";
import { ORIGINAL_TASK_FILES, WORLD_TASKS_DIR } from "./task-sample.js";

/** Modifiers of world trials: selected by the agent option world_modifiers, recorded, replayable. */
const WORLD_TASKS = WORLD_TASKS_DIR;
registerWorldKinds();

interface Probe {
  members: TeamMember[];
  seen: Observation[];
  results: unknown[];
}
/** What the probe team was told and saw, one record per trial, in order. */
const probes: Probe[] = [];

// A team that records its members and observations, and on each agent's first turns tries to talk
// and then to hand an item over (so a refusal shows in its next observation's last result).
registerTeamAgent({
  name: "probe",
  description: "records what it is told and seen (test only)",
  create: (ctx) => {
    const rec: Probe = { members: [...ctx.members], seen: [], results: [] };
    probes.push(rec);
    return {
      act: async (id, obs, round) => {
        rec.seen.push(obs);
        if (obs.lastResult !== null) rec.results.push(obs.lastResult);
        const mate = ctx.members.find((m) => m.id !== id)?.id ?? id;
        if (round === 0) return { tool: "chat", args: { message: "hello" } };
        const held = obs.inventory[0];
        if (round === 1 && held !== undefined)
          return { tool: "transfer_items", args: { to: mate, item: held.item, count: 1 } };
        return { tool: "wait", args: {} };
      },
    };
  },
});

const world = createWorld();
let tasks: Task[];

async function runWorld(
  taskNames: string[],
  agent: string,
  modifiers: string | null,
  seed = 7,
): Promise<{ trials: TrialResult[]; runs: RunFile[] }> {
  const store = await JobStore.open(tempDir("world-mods"));
  try {
    const chosen = tasks.filter((t) => taskNames.includes(t.name));
    const config = buildJobConfig({
      tasks: chosen,
      agents: [agent],
      seed,
      ...(modifiers === null ? {} : { agentOptions: { world_modifiers: modifiers } }),
    });
    const out = await runJob({
      store,
      config,
      tasks: chosen,
      provider: getSandboxProvider("bwrap"),
      resume: false,
    });
    const runs = out.trials.map((t) =>
      runFileSchema.parse(
        JSON.parse(readFileSync(join(store.trialDir(config.job_id, t.trial_id), WORLD_RUN_FILE), "utf8")),
      ),
    );
    return { trials: out.trials, runs };
  } finally {
    await store.close();
  }
}

/** One probe trial of warden-hunt; what the probe recorded. */
async function probeRun(modifiers: string | null): Promise<Probe | undefined> {
  await runWorld(["warden-hunt"], "probe", modifiers);
  return probes.at(-1);
}

beforeAll(async () => {
  const set = await loadTaskSet(ORIGINAL_TASK_FILES);
  tasks = set.tasks;
});

describe("world modifiers: parsing", () => {
  it("parses a list with values and labels each modifier", () => {
    const mods = parseWorldModifiers(" no-comm, round-budget=40 ,random-spawn");
    expect(mods.map((m) => m.label)).toEqual(["no-comm", "round-budget=40", "random-spawn"]);
    expect(parseWorldModifiers("")).toEqual([]);
  });

  it("refuses unknown names (listing the known ones), bad values and repeats", () => {
    expect(() => parseWorldModifiers("no-chat")).toThrow(
      /world_modifiers: unknown world modifier "no-chat" \(known: no-comm, no-docs, round-budget, random-spawn, no-roles, shared-plan, oracle-comm, merged\)/,
    );
    expect(() => parseWorldModifiers("round-budget=0")).toThrow(
      /world_modifiers: round-budget=0: expected a whole number/,
    );
    expect(() => parseWorldModifiers("round-budget=x")).toThrow(UserError);
    expect(() => parseWorldModifiers("round-budget")).toThrow(/needs a value/);
    expect(() => parseWorldModifiers("no-comm=1")).toThrow(/takes no value/);
    expect(() => parseWorldModifiers("no-comm,no-comm")).toThrow(/given twice/);
    expect(() => parseWorldModifiers("oracle-comm,no-comm")).toThrow(
      /no-comm and oracle-comm contradict each other/,
    );
    expect(() => parseWorldModifiers("shared-plan,no-comm")).toThrow(/no-comm and shared-plan contradict/);
  });

  it("a job with a bad modifier is refused before it is made; a good one is recorded in its config", () => {
    const some = tasks.filter((t) => t.name === "warden-hunt");
    expect(() =>
      buildJobConfig({ tasks: some, agents: ["oracle"], agentOptions: { world_modifiers: "nope" } }),
    ).toThrow(/unknown world modifier "nope"/);
    const config = buildJobConfig({
      tasks: some,
      agents: ["oracle"],
      agentOptions: { world_modifiers: "no-docs" },
    });
    expect(config.agent_options.world_modifiers).toBe("no-docs");
  });
});

describe("world modifiers change what they should", () => {
  it("no-comm: the oracle's hand-overs are refused, so it no longer succeeds; the run replays", async () => {
    const plain = await runWorld(["market-supply"], "oracle", null);
    const cut = await runWorld(["market-supply"], "oracle", "no-comm");
    expect(plain.trials[0]?.world?.success).toBe(true);
    expect(plain.trials[0]?.world?.modifiers).toEqual([]);
    const t = cut.trials[0];
    expect(t?.outcome).toBe("completed");
    expect(t?.world?.success).toBe(false);
    expect(t?.reward ?? 1).toBeLessThan(1);
    expect(t?.world?.modifiers).toEqual(["no-comm"]);
    const run = cut.runs[0] as RunFile;
    expect(run.modifiers).toEqual(["no-comm"]);
    expect(run.rules.noComm).toBe(true);
    const refused = run.events.filter(
      (e) => e.type === "action" && e.data.tool === "transfer_items" && e.data.ok === false,
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((e) => (e.data.error as { code: string }).code === "no_communication")).toBe(true);
    expect(run.events.some((e) => e.type === "transferred")).toBe(false);
    expect(checkRunReplay(world, run).verdict).toBe("identical");
    // The plain run has no modifiers recorded and no rule set.
    expect(plain.runs[0]?.modifiers).toBeUndefined();
    expect(plain.runs[0]?.rules.noComm).toBeUndefined();
  });

  it("no-comm: chat is refused and teammates are not in view", async () => {
    const plain = await probeRun(null);
    const cut = await probeRun("no-comm");
    // The team starts together: without the modifier, teammates are seen; with it, never.
    expect(plain?.seen[0]?.nearby.some((t) => t.kind === "agent")).toBe(true);
    expect(cut?.seen.some((o) => o.nearby.some((t) => t.kind === "agent"))).toBe(false);
    const chats = (r: unknown[] | undefined) =>
      (r ?? []).filter((x) => (x as { tool: string }).tool === "chat") as Array<{
        ok: boolean;
        error?: { code: string };
      }>;
    expect(chats(plain?.results).every((r) => r.ok)).toBe(true);
    expect(chats(cut?.results).length).toBeGreaterThan(0);
    expect(chats(cut?.results).every((r) => !r.ok && r.error?.code === "no_communication")).toBe(true);
  });

  it("round-budget=1 ends the run after one round; the run replays", async () => {
    const { trials, runs } = await runWorld(["warden-hunt"], "oracle", "round-budget=1");
    expect(trials[0]?.world).toMatchObject({
      rounds: 1,
      max_rounds: 1,
      success: false,
      modifiers: ["round-budget=1"],
    });
    expect(runs[0]?.roundBudget).toBe(1);
    expect(checkRunReplay(world, runs[0] as RunFile).verdict).toBe("identical");
  });

  it("random-spawn redraws spawns deterministically per seed, on reachable walkable tiles; the run replays", async () => {
    const spec = loadWorldTask(join(WORLD_TASKS, "warden-hunt.yaml"), world);
    const a = randomSpawns(spec, world, 1).team.map((m) => m.spawn);
    const again = randomSpawns(spec, world, 1).team.map((m) => m.spawn);
    const b = randomSpawns(spec, world, 2).team.map((m) => m.spawn);
    expect(again).toEqual(a);
    expect(b).not.toEqual(a);
    const origin = world.pack.world.spawn;
    const region = world.map.comp[origin.y * world.map.width + origin.x];
    for (const [i, p] of a.entries()) {
      const from = spec.team[i]?.spawn ?? origin;
      expect(p).toBeDefined();
      expect(p).not.toEqual(from);
      expect(world.map.comp[(p?.y ?? 0) * world.map.width + (p?.x ?? 0)]).toBe(
        world.map.comp[from.y * world.map.width + from.x],
      );
    }
    expect(region).toBeGreaterThanOrEqual(0);
    const { trials, runs } = await runWorld(["warden-hunt"], "nop", "random-spawn");
    const run = runs[0] as RunFile;
    const expected = randomSpawns(spec, world, trials[0]?.seed ?? -1).team.map((m) => m.spawn);
    const recorded = ((run.task?.spec.team ?? []) as Array<{ spawn?: unknown }>).map((m) => m.spawn);
    expect(recorded).toEqual(expected);
    expect(checkRunReplay(world, run).verdict).toBe("identical");
  });

  it("no-docs empties the documents; no-roles gives everyone one neutral role and document", async () => {
    const plain = await probeRun(null);
    const noDocs = await probeRun("no-docs");
    const noRoles = await probeRun("no-roles");
    expect(plain?.members.every((m) => m.document.length > 100)).toBe(true);
    expect(new Set(plain?.members.map((m) => m.role)).size).toBeGreaterThan(1);
    expect(noDocs?.members.map((m) => m.document)).toEqual(plain?.members.map(() => ""));
    expect(noRoles?.members.map((m) => [m.role, m.document])).toEqual(
      plain?.members.map(() => ["member", NEUTRAL_DOCUMENT]),
    );
    // Goals stay; observations name no role, neither the agent's own nor a teammate's.
    expect(noRoles?.members.map((m) => m.goal)).toEqual(plain?.members.map((m) => m.goal));
    expect(noRoles?.seen.every((o) => o.role === "member")).toBe(true);
    const mates = noRoles?.seen.flatMap((o) => o.nearby.filter((t) => t.kind === "agent")) ?? [];
    expect(mates.length).toBeGreaterThan(0);
    expect(mates.every((t) => t.detail === "member")).toBe(true);
    // Skills stay as the task gives them.
    expect(noRoles?.seen[0]?.skills).toEqual(plain?.seen[0]?.skills);
    // A refused tool does not name the real role either.
    const seen = noRoles?.seen[0] as Observation;
    const refused = getWorldModifier("no-roles").observation?.({
      ...seen,
      lastResult: {
        ok: false,
        tool: "craft_item",
        error: { code: "tool_not_allowed", message: "your role (warrior) cannot use craft_item" },
      },
    });
    expect(refused?.lastResult).toMatchObject({ error: { message: "you cannot use craft_item" } });
  });
});
