import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { summarize } from "../../src/analysis/index.js";
import type { TrialResult, WorldCce } from "../../src/core/index.js";
import { renderMarkdown } from "../../src/report/render-markdown.js";
import { createWorld, type World } from "../../src/world/build/world.js";
import { worldCce } from "../../src/world/cce/world-cce.js";
import { agentDocument, loadWorldTask, replayRounds, verifyWorldRun } from "../../src/world/task/index.js";
import { ORIGINAL_TASKS, WORLD_TASKS_DIR } from "./task-sample.js";

/** The bundled world tasks played by the oracle (their reference calls), then traced. */
const TASKS = ORIGINAL_TASKS;
const DIR = WORLD_TASKS_DIR;

function toolOf(call: unknown): string {
  return String((call as { tool?: unknown } | undefined)?.tool);
}

describe("causal contribution of the bundled tasks played by the oracle", () => {
  let base: World;
  const results = new Map<string, { cce: WorldCce; calls: { agent: string; call: unknown }[] }>();

  beforeAll(() => {
    base = createWorld();
    for (const name of TASKS) {
      const spec = loadWorldTask(resolve(DIR, `${name}.yaml`), base);
      const { session } = replayRounds(spec, base, spec.reference ?? []);
      const verdict = verifyWorldRun(spec, base, session.state, session.events);
      expect(verdict.success, name).toBe(true);
      const prior = Object.fromEntries(
        spec.team.map((m) => [m.id, `${m.role}\n${m.goal}\n${agentDocument(spec, base, m.id)}`]),
      );
      const cce = worldCce({
        spec,
        base,
        state: session.state,
        events: session.events,
        calls: session.calls,
        success: true,
        prior,
        counterfactual: { seed: 7, samples: 4 },
      });
      results.set(name, { cce, calls: session.calls });
    }
  }, 60_000);

  it("puts every success witness in the closure; CCE in (0, 1] and a PAC for every agent", () => {
    for (const name of TASKS) {
      const r = results.get(name);
      if (r === undefined) throw new Error(name);
      const { cce } = r;
      expect(cce.witnesses.length, name).toBeGreaterThan(0);
      for (const w of cce.witnesses) expect(cce.closure, name).toContain(w);
      expect(cce.cce, name).toBeGreaterThan(0);
      expect(cce.cce, name).toBeLessThanOrEqual(1);
      expect(cce.actions).toBe(r.calls.length);
      expect(cce.contributing).toBe(cce.closure.length);
      expect(cce.agents.reduce((n, a) => n + a.actions, 0)).toBe(cce.actions);
      for (const a of cce.agents) expect(a.pac, `${name} ${a.id}`).not.toBeNull();
      // Declaring completion and waiting never contribute.
      for (const i of cce.closure) {
        const tool = toolOf(r.calls[i]?.call);
        expect(["complete", "wait"], `${name} call ${i}`).not.toContain(tool);
      }
      expect(cce.trace_ms).toBeLessThan(1000);
    }
  });

  it("traces bronze-arrows exactly: the log, ore and arrowheads chains and the walks before them", () => {
    const r = results.get("bronze-arrows");
    expect([r?.cce.contributing, r?.cce.actions, r?.cce.waits]).toEqual([21, 46, 21]);
    expect(r?.cce.agents.map((a) => [a.id, a.contributing, a.actions])).toEqual([
      ["lumberjack", 5, 6],
      ["miner", 11, 12],
      ["smith", 3, 14],
      ["fletcher", 2, 14],
    ]);
    // The witness is the fletcher's arrow craft; the smith's hand-over of arrowheads feeds it.
    const calls = r?.calls ?? [];
    const tools = (r?.cce.closure ?? []).map((i) => `${calls[i]?.agent}:${toolOf(calls[i]?.call)}`);
    expect(tools).toContain("smith:transfer_items");
    expect(tools).toContain("lumberjack:harvest_resource");
  });

  it("replays sampled calls as waits: closure calls are mostly necessary, outside calls never break success", () => {
    for (const name of TASKS) {
      const cf = results.get(name)?.cce.counterfactual;
      expect(cf?.inside.sampled, name).toBe(4);
      expect(cf?.inside.necessary, name).toBeGreaterThan(0);
      expect(cf?.outside.breaking, name).toBe(0);
    }
    // Seeded: the same seed samples the same calls.
    expect(results.get("bronze-arrows")?.cce.counterfactual?.calls.map((c) => c.index)).toEqual([
      8, 12, 19, 20, 21, 39, 44, 45,
    ]);
  });

  it("the report prints CCE and PAC with their denominators", () => {
    const trials = TASKS.map(
      (name) =>
        ({
          task: { name, category: "crafting" },
          agent: "oracle",
          model: null,
          attempt: 1,
          outcome: "completed",
          self_terminated: true,
          reward: 1,
          subtasks: [],
          usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0, turns: 0 },
          world: { success: true, cce: results.get(name)?.cce },
        }) as unknown as TrialResult,
    );
    const md = renderMarkdown(summarize(trials, { bootstrapSamples: 0, groupBy: ["agent"] }));
    expect(md).toContain("causal contribution (CCE, PAC)");
    expect(md).toContain("0.457 (21/46)");
    expect(md).toContain("lumberjack 0.833 (5/6)");
    expect(md).toMatch(/pooled/);
  });
});
