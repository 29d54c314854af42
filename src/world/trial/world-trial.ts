import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  emptyUsage,
  errorMessage,
  InfraError,
  type TrialResult,
  UserError,
  type WorldChat,
} from "../../core/index.js";
import { TrialInterrupted, type TrialParams } from "../../runner/run-trial.js";
import { round3, trialHeader } from "../../runner/trial-header.js";
import { createWorld, type World } from "../build/world.js";
import { worldCce } from "../cce/world-cce.js";
import { worldChat } from "../chat/world-chat.js";
import { DEFAULT_SEED } from "../content/generate-content.js";
import type { RunFile } from "../engine/session.js";
import { loadWorldTask, verifyWorldRun, type WorldTaskSpec } from "../task/index.js";
import type { TeamAgent } from "../team/types.js";
import { cceSamplesOf } from "./cce-option.js";
import { membersPrior } from "./members.js";
import { checkTeamForModifiers, modifiersOf } from "./modifiers.js";
import { startWorldPlay } from "./play.js";

/** The run file of a world trial, beside result.json: `longhaul world replay` re-runs it. */
export const WORLD_RUN_FILE = "world-run.json";

/**
 * A world trial: the team agent named by the trial's agent plays the task for at most its rounds,
 * every call recorded; the verifier then scores the final state and event log. R is the PSR (one
 * binary subtask per checkpoint), `world.success` the SR's unit. The trial's seed drives the
 * world's random draws and the team's own, so the same seed replays the same game.
 */
export async function runWorldTrial(p: TrialParams): Promise<TrialResult> {
  const started = new Date();
  const t0 = performance.now();
  // The generated world every task plays in (built once per process: it takes a while).
  const base = createWorld(DEFAULT_SEED);
  let task: WorldTaskSpec;
  try {
    task = loadWorldTask(p.task.paths.config, base);
  } catch (e) {
    throw e instanceof UserError ? e : new InfraError(`world task ${p.task.name}: ${errorMessage(e)}`);
  }
  // Modifiers (agent option world_modifiers) rewrite the task before it is set up; the run file
  // records the rewritten task, so a replay plays the modified run.
  const mods = modifiersOf(p.agentOptions);
  const cceSamples = cceSamplesOf(p.agentOptions);
  // Checked when the job is made too; a job made elsewhere (an older config) is refused here.
  checkTeamForModifiers(p.agent, mods);
  // The task's seed fixes its world (combat rolls, drops): the reference solution is a fixed
  // game. The trial's seed drives the team's own choices (a random team, model sampling).
  const play = startWorldPlay(task, base, {
    team: p.agent,
    seed: p.seed,
    options: p.agentOptions,
    modifiers: mods,
    model: p.model,
    signal: p.signal,
    ...(p.log === undefined ? {} : { log: p.log }),
  });
  const { spec, session, team, members } = play;
  const world = session.world;
  const agents = session.agents;
  const setupSec = (performance.now() - t0) / 1000;
  const deadline = Date.now() + p.task.config.agent.timeout_sec * p.timeoutMultiplier * 1000;
  let outcome: TrialResult["outcome"] = "completed";
  let error: TrialResult["error"] = null;
  try {
    await session.runAsync(async (id, obs, round) => {
      if (p.signal.aborted) throw new TrialInterrupted("job interrupted");
      if (Date.now() > deadline) throw new TimeUp();
      return play.act(id, obs, round);
    });
  } catch (e) {
    if (e instanceof TrialInterrupted) throw e;
    if (e instanceof TimeUp) outcome = "agent_timeout";
    else if (e instanceof InfraError) throw e;
    else {
      outcome = "agent_error";
      error = { kind: "agent", message: errorMessage(e) };
    }
  }
  const agentSec = (performance.now() - t0) / 1000 - setupSec;
  const v0 = performance.now();
  const verdict = verifyWorldRun(spec, world, session.state, session.events);
  // Causal contribution: what each agent knew before the run is its goal and role document.
  const cce = worldCce({
    spec,
    base,
    state: session.state,
    events: session.events,
    calls: session.calls,
    success: verdict.success,
    prior: membersPrior(members),
    counterfactual: cceSamples === 0 ? null : { seed: p.seed, samples: cceSamples },
  });
  const verifierSec = (performance.now() - v0) / 1000;
  mkdirSync(p.trialDir, { recursive: true });
  const runFile = session.toRunFile(DEFAULT_SEED);
  writeFileSync(join(p.trialDir, WORLD_RUN_FILE), `${JSON.stringify(runFile)}\n`);
  // Chat analysis replays the run once more (tens of milliseconds); a run that does not replay
  // (a non-deterministic custom tool) is stored without it rather than failing the trial.
  const chat = chatOf(base, runFile, p.log);
  const actions = new Map<string, number>();
  for (const c of session.calls) actions.set(c.agent, (actions.get(c.agent) ?? 0) + 1);
  return {
    ...trialHeader(p),
    timing: {
      started_at: started.toISOString(),
      finished_at: new Date().toISOString(),
      setup_sec: round3(setupSec),
      agent_sec: round3(agentSec),
      verifier_sec: round3(verifierSec),
      verifier_command_sec: round3(verifierSec),
      total_sec: round3((performance.now() - t0) / 1000),
    },
    outcome,
    // Self-terminated: every agent declared its part complete (rather than the rounds running out).
    self_terminated: session.state.agents.toArray().every((a) => a.completed !== null),
    reward: verdict.psr,
    subtasks: verdict.checkpoints.map((c) => ({
      id: c.id,
      weight: c.weight,
      kind: "binary" as const,
      visibility: "hidden" as const,
      score: c.reached ? 1 : 0,
      error: null,
      message: c.detail,
    })),
    grading_errors: [],
    usage: teamUsage(team),
    infra_retries: 0,
    error,
    stress_digest: null,
    budget_left_sec: null,
    continuation: null,
    world: {
      success: verdict.success,
      success_detail: verdict.successDetail,
      rounds: session.roundsPlayed,
      max_rounds: spec.max_rounds,
      agents: agents.map((a) => ({ id: a.id, role: a.role, actions: actions.get(a.id) ?? 0 })),
      run_file: WORLD_RUN_FILE,
      modifiers: mods.map((m) => m.label),
      cce,
      ...(chat === null ? {} : { chat }),
    },
  };
}

function chatOf(base: World, run: RunFile, log: ((line: string) => void) | undefined): WorldChat | null {
  try {
    return worldChat(base, run);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    log?.(`chat analysis skipped: ${e.message}`);
    return null;
  }
}

class TimeUp extends Error {}

function teamUsage(team: TeamAgent): TrialResult["usage"] {
  const u = team.usage?.();
  if (u === undefined) return emptyUsage();
  return {
    ...emptyUsage(),
    input_tokens: u.tokens.inputTokens,
    output_tokens: u.tokens.outputTokens,
    cached_tokens: u.tokens.cachedTokens,
    reasoning_tokens: u.tokens.reasoningTokens,
    cost_usd: u.costUsd,
    turns: u.turns,
    parse_errors: u.parseErrors,
    model_sec: u.modelSec,
    cost_known: u.unpricedCalls === 0,
  };
}
