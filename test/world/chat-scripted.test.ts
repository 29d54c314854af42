import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarize } from "../../src/analysis/index.js";
import { type TrialResult, trialResultSchema } from "../../src/core/index.js";
import { renderMarkdown } from "../../src/report/render-markdown.js";
import { buildJobConfig, runJob } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { JobStore } from "../../src/store/index.js";
import { loadTaskSet } from "../../src/task/index.js";
import { registerWorldKinds } from "../../src/world/trial/register.js";
import { WORLD_RUN_FILE } from "../../src/world/trial/world-trial.js";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";

/**
 * The scripted team plays one bundled task (market-supply) through the runner: its chat is
 * analysed, stored as world.chat, aggregated in the report and printed by `longhaul world chat`.
 */
const TASK = resolve(import.meta.dirname, "../../world-tasks/market-supply.yaml");
registerWorldKinds();

describe("chat analysis of the scripted team's market-supply run", () => {
  let store: JobStore;
  let jobId: string;
  let trial: TrialResult;

  beforeAll(async () => {
    const { tasks } = await loadTaskSet([TASK]);
    store = await JobStore.open(tempDir("world-chat"));
    const config = buildJobConfig({ tasks, agents: ["scripted"], seed: 5 });
    jobId = config.job_id;
    const out = await runJob({ store, config, tasks, provider: getSandboxProvider("bwrap"), resume: false });
    const t = out.trials[0];
    if (t === undefined) throw new Error("no trial");
    trial = t;
  }, 60_000);
  afterAll(async () => {
    await store.close();
  });

  it("stores exact counts: 4 team messages in round 0, all checked ok; 3 of 5 complete calls checked", () => {
    const c = trial.world?.chat;
    expect(c).toBeDefined();
    expect([c?.messages, c?.delivered, c?.team, c?.direct]).toEqual([4, 4, 4, 0]);
    expect(c?.per_round.slice(0, 2)).toEqual([4, 0]);
    expect(c?.per_round.reduce((s, n) => s + n, 0)).toBe(4);
    expect(c?.labels).toMatchObject({ ok: 4, unchecked: 0, factual_error: 0, duplicate: 0, empty_talk: 0 });
    expect(c?.agents.map((a) => [a.id, a.messages, a.first_round])).toEqual([
      ["lumberjack", 1, 0],
      ["miner", 1, 0],
      ["fisher", 0, null],
      ["cook", 1, 0],
      ["merchant", 1, 0],
    ]);
    // The merchant's "greenvale_smith at (538,388)" is checked against the NPC's place.
    expect(c?.items.find((m) => m.agent === "merchant")).toMatchObject({ label: "ok", call: 4 });
    expect(c?.completions.map((x) => [x.agent, x.premature])).toEqual([
      ["fisher", false],
      ["cook", false],
      ["miner", null],
      ["merchant", false],
      ["lumberjack", null],
    ]);
    // Cheap enough to run with every trial (replaying 71 calls).
    expect(c?.analyze_ms ?? 1e9).toBeLessThan(2000);
  });

  it("old results without world.chat still load; the report aggregates the stored chat", async () => {
    const old = JSON.parse(JSON.stringify(trial)) as { world: Record<string, unknown> };
    delete old.world.chat;
    expect(trialResultSchema.parse(old).world?.chat).toBeUndefined();
    const stored = await store.listTrials(jobId);
    const s = summarize(stored, { bootstrapSamples: 0, groupBy: ["agent"] });
    expect(s.worldChat?.groups).toMatchObject([
      { label: "scripted", trials: 1, messages: 4, team: 4, direct: 0, judged: 4, errors: 0 },
    ]);
    expect(s.worldChat?.groups[0]?.firstRound).toEqual({ median: 0, chatted: 4, agents: 5 });
    const md = renderMarkdown(s);
    expect(md).toContain("World tasks: chat analysis");
    expect(md).toMatch(
      /\| scripted \| 1 \| 4 \| 4 \/ 0 \| 0 \(4\/5\) \| 1\.000 \(4\/4\) \| 0\.000 \(0\/4\) \|/,
    );
    expect(md).toContain("World tasks: chat per trial");
  });

  it("longhaul world chat prints the counts and each message's label; --json the stored shape", async () => {
    const file = join(store.trialDir(jobId, trial.trial_id), WORLD_RUN_FILE);
    const r = await runCli(["world", "chat", file]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "messages 4 (team 4, direct 0; delivered 4)",
      "labels: ok 4",
      "per round (rounds with a message, of 17): r0 4",
    ]);
    expect(r.stdout).toMatch(/^merchant +1 +1 +0 +0 +ok 1$/m);
    expect(r.stdout).toMatch(/^fisher +0 +0 +0 +– +–$/m);
    expect(r.stdout).toContain(
      '4  r0  merchant → team: ok; "greenvale_smith at (538,388)"; every line checked',
    );
    expect(r.stdout).toMatch(/64 {2}r13 {2}miner: unchecked; no goal predicate names this agent/);
    const j = await runCli(["world", "chat", file, "--json"]);
    const parsed = JSON.parse(j.stdout) as { items: { text: string; label: string }[]; labels: unknown };
    expect(parsed.labels).toEqual(trial.world?.chat?.labels);
    expect(parsed.items.map((m) => m.text)).toEqual([
      "take gather 2 pine_log; take deliver 2 pine_log to merchant",
      "take sell 2 copper_ore to greenvale_smith; where greenvale_smith",
      "take deliver 3 cooked_shrimp to merchant",
      "greenvale_smith at (538,388)",
    ]);
  }, 30_000);
});
