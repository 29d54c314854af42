import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { TrialResult, WorldCce } from "../../src/core/index.js";
import { JobStore } from "../../src/store/index.js";
import { createWorld } from "../../src/world/build/world.js";
import { worldCce } from "../../src/world/cce/world-cce.js";
import { DEFAULT_SEED } from "../../src/world/content/generate-content.js";
import type { RunFile } from "../../src/world/engine/session.js";
import { loadWorldTask, replayRounds, verifyWorldRun } from "../../src/world/task/index.js";
import { WORLD_RUN_FILE } from "../../src/world/trial/world-trial.js";
import { storedJobConfig, storedTask, storedTrial } from "./stored-trials.js";

export const BRONZE_ARROWS = resolve(import.meta.dirname, "../../world-tasks/bronze-arrows.yaml");
/** Chat text a page must show as text, never as markup. */
export const INJECTED_CHAT = `<img src=x onerror="document.body.dataset.pwned='1'">`;

/**
 * bronze-arrows played by its reference solution, with the fletcher's first-round wait replaced by
 * a chat message carrying markup: a successful run with a known closure and an agent's text to escape.
 */
export function bronzeArrowsRun(): { run: RunFile; cce: WorldCce; success: boolean } {
  const base = createWorld();
  const spec = loadWorldTask(BRONZE_ARROWS, base);
  const rounds = (spec.reference ?? []).map((r, i) =>
    i === 0 ? [...r, { agent: "fletcher", call: { tool: "chat", args: { message: INJECTED_CHAT } } }] : r,
  );
  const played = replayRounds(spec, base, rounds);
  const { session } = played;
  const verdict = verifyWorldRun(spec, session.world, session.state, session.events);
  const cce = worldCce({
    spec,
    base,
    state: session.state,
    events: session.events,
    calls: session.calls,
    success: verdict.success,
    prior: {},
    counterfactual: null,
  });
  return { run: session.toRunFile(DEFAULT_SEED), cce, success: verdict.success };
}

export const WORLD_JOB = "job-world";
export const WORLD_TRIAL = "bronze-arrows__oracle__a0";

/** A jobs folder holding one job with the bronze-arrows trial above, its run file beside result.json. */
export async function buildWorldJob(jobsDir: string): Promise<TrialResult> {
  const { run, cce, success } = bronzeArrowsRun();
  const store = await JobStore.open(jobsDir);
  const result = storedTrial({
    job_id: WORLD_JOB,
    trial_id: WORLD_TRIAL,
    task: storedTask("bronze-arrows", "crafting", BRONZE_ARROWS),
    reward: 1,
    world: {
      success,
      success_detail: "fixture",
      rounds: run.rounds,
      max_rounds: run.roundBudget,
      agents: run.agents.map((a) => ({
        id: a.id,
        role: a.role,
        actions: run.calls.filter((c) => c.agent === a.id).length,
      })),
      run_file: WORLD_RUN_FILE,
      cce,
    },
  });
  try {
    await store.createJob(storedJobConfig({ job_id: WORLD_JOB }));
    await store.recordTrial(result);
    const dir = store.trialDir(WORLD_JOB, WORLD_TRIAL);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, WORLD_RUN_FILE), JSON.stringify(run));
  } finally {
    await store.close();
  }
  return result;
}
