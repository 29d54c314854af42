import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelMessage, ToolSet } from "ai";
import { errorMessage, type Usage, UserError } from "../../core/index.js";
import { ModelCallError, type ModelClient, type ModelResponse } from "../../models/index.js";
import type { AgentRunResult, DoneVerdict } from "../types.js";
import type { CastRecorder } from "./cast.js";
import type { LoopOptions } from "./options.js";
import { SUMMARY_PROMPT } from "./summary-prompt.js";
import { estimateTokens } from "./text-cap.js";
import { type AtifToolCall, stepMetrics, TrajectoryRecorder } from "./trajectory.js";

export const STOP_REASONS = ["self", "turns", "wall", "aborted", "error"] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** What a driver did with one model answer. */
export interface TurnOutcome {
  /** Messages that answer the model's turn (tool results, the next observation, an error note). */
  followUp: ModelMessage[];
  done: boolean;
  parseError: boolean;
  commandSec: number;
  /** The agent's words for the trajectory. */
  message: string;
  toolCalls?: AtifToolCall[];
  /** What the model was shown next; `source_call_id` ties a result to its tool call. */
  observations?: { source_call_id?: string; content: string }[];
}

/** The part that differs between harnesses: prompts, how answers become actions, what is observed. */
export interface LoopDriver {
  readonly agentName: string;
  readonly version: string;
  readonly systemPrompt: string;
  readonly tools?: ToolSet;
  readonly cast: CastRecorder;
  /** The first user message: the instruction and whatever the agent should see at the start. */
  start(instruction: string, signal: AbortSignal): Promise<string>;
  handle(resp: ModelResponse, turn: number, signal: AbortSignal): Promise<TurnOutcome>;
  /** The user message that replaces the history once it has been summarised. */
  resume(instruction: string, summary: string): Promise<string>;
  close(): Promise<void>;
}

export interface LoopConfig {
  client: ModelClient;
  options: LoopOptions;
  instruction: string;
  signal: AbortSignal;
  logDir: string;
  timeoutSec: number;
  log: (line: string) => void;
  /** Called after every turn with its timings (progress display, overhead measurement). */
  onTurn?: (t: TurnTiming) => void;
  /** Continue-until-timeout mode: asked when the agent declares completion (see AgentContext). */
  onDone?: () => Promise<DoneVerdict>;
}

export interface TurnTiming {
  turn: number;
  wallSec: number;
  modelSec: number;
  retrySec: number;
  commandSec: number;
}

export interface LoopResult extends AgentRunResult {
  stopReason: StopReason;
  usage: Usage;
  summaries: number;
}

export { SUMMARY_PROMPT };

const CONFIG_STATUS = new Set([401, 403, 404]);

const CONTEXT_ERROR = /context|too long|too many tokens|maximum.*tokens|prompt is too long/i;

/** The turn loop shared by every LLM harness: budgets, context summarisation and recording. */
export async function runLlmLoop(driver: LoopDriver, cfg: LoopConfig): Promise<LoopResult> {
  const { client, options, signal } = cfg;
  const traj = new TrajectoryRecorder({
    name: driver.agentName,
    version: driver.version,
    model_name: client.id,
  });
  const t0 = performance.now();
  const wallSec = options.max_wall_sec ?? cfg.timeoutSec;
  let turns = 0;
  let parseErrors = 0;
  let commandSec = 0;
  let summaries = 0;
  let reentries = 0;
  let stopReason: StopReason = "error";
  let error: string | undefined;
  let messages: ModelMessage[] = [];
  let contextTokens = 0;
  const base = { system: driver.systemPrompt, ...(driver.tools ? { tools: driver.tools } : {}), signal };

  const summarise = async (): Promise<void> => {
    const before = client.calls.length;
    let summary: string;
    // Set when the text below is ours, not the model's (an empty answer, a failed call).
    let standIn = false;
    try {
      const r = await client.complete({
        ...base,
        messages: [...messages, { role: "user", content: SUMMARY_PROMPT }],
        ...(driver.tools ? { toolChoice: "none" as const } : {}),
      });
      summary = r.text.trim() || "(the summary came back empty)";
      standIn = r.text.trim() === "";
    } catch (e) {
      // A provider still down after its retries is the infrastructure's failure (the trial is
      // retried); going on would drop the whole history for a placeholder. Only a refused summary
      // request (the model's own answer to it) is replaced by a note.
      if (!(e instanceof ModelCallError) || e.retryable) throw e;
      summary = `(no summary: ${e.message})`;
      standIn = true;
    }
    const dropped = messages.length;
    const text = await driver.resume(cfg.instruction, summary);
    messages = [{ role: "user", content: text }];
    contextTokens = estimateTokens(driver.systemPrompt + text);
    summaries++;
    cfg.log(`context summarised (${dropped} messages replaced)`);
    // The summary is the model's own words, so it is an agent step (the only kind with metrics).
    traj.add({
      source: "agent",
      model_name: client.id,
      message: summary,
      metrics: stepMetrics(client.calls.slice(before)),
      extra: {
        kind: "summary",
        replaced_messages: dropped,
        resume_message: text,
        request: SUMMARY_PROMPT,
        stand_in: standIn,
      },
    });
  };

  try {
    traj.add({ source: "system", message: driver.systemPrompt });
    const first = await driver.start(cfg.instruction, signal);
    messages = [{ role: "user", content: first }];
    contextTokens = estimateTokens(driver.systemPrompt + first);
    traj.add({ source: "user", message: first });
    for (;;) {
      if (signal.aborted) {
        stopReason = "aborted";
        break;
      }
      if (turns >= options.max_turns) {
        stopReason = "turns";
        break;
      }
      // Time lost to provider retries is not the agent's: it is kept out of the wall budget.
      if ((performance.now() - t0) / 1000 - client.totals().retrySec >= wallSec) {
        stopReason = "wall";
        break;
      }
      if (messages.length > 1 && contextTokens >= options.summarize_at * client.contextWindow)
        await summarise();
      const before = client.calls.length;
      const turnStart = performance.now();
      let resp: ModelResponse;
      try {
        resp = await client.complete({ ...base, messages });
      } catch (e) {
        // A provider that rejects the prompt as too long gets one summarisation, then the turn again.
        if (
          e instanceof ModelCallError &&
          !e.retryable &&
          CONTEXT_ERROR.test(e.message) &&
          messages.length > 1
        ) {
          await summarise();
          continue;
        }
        throw e;
      }
      turns++;
      const out = await driver.handle(resp, turns, signal);
      if (out.parseError) parseErrors++;
      commandSec += out.commandSec;
      messages.push(...resp.responseMessages, ...out.followUp);
      const reported = resp.record.tokens.inputTokens + resp.record.tokens.outputTokens;
      const added = estimateTokens(JSON.stringify(out.followUp));
      contextTokens =
        reported > 0 ? reported + added : estimateTokens(driver.systemPrompt + JSON.stringify(messages));
      traj.add({
        source: "agent",
        model_name: client.id,
        message: out.message,
        ...(out.toolCalls && out.toolCalls.length > 0 ? { tool_calls: out.toolCalls } : {}),
        ...(out.observations && out.observations.length > 0
          ? { observation: { results: out.observations } }
          : {}),
        metrics: stepMetrics(client.calls.slice(before)),
        extra: { turn: turns, parse_error: out.parseError, command_sec: out.commandSec },
      });
      cfg.onTurn?.({
        turn: turns,
        wallSec: (performance.now() - turnStart) / 1000,
        modelSec: resp.record.modelSec,
        retrySec: resp.record.retrySec,
        commandSec: out.commandSec,
      });
      if (out.done) {
        const verdict = cfg.onDone ? await cfg.onDone() : ({ accept: true } as const);
        if (verdict.accept) {
          stopReason = "self";
          break;
        }
        // Sent back: the public checks failed, so the model hears why and keeps working.
        messages.push({ role: "user", content: verdict.feedback });
        contextTokens += estimateTokens(verdict.feedback);
        reentries++;
        traj.add({ source: "user", message: verdict.feedback, extra: { kind: "continue" } });
        cfg.log(`${driver.agentName}: declared completion; public checks failed, continuing`);
      }
    }
  } catch (e) {
    if (signal.aborted) {
      stopReason = "aborted";
    } else if (e instanceof ModelCallError && !e.retryable && !CONFIG_STATUS.has(e.statusCode ?? 0)) {
      // The model refused this conversation (e.g. a 400): the agent's run ends in error.
      stopReason = "error";
      error = e.message;
    } else if (e instanceof ModelCallError && !e.retryable) {
      // Bad key, no access, unknown model: every trial would fail the same way.
      error = e.message;
      await finish();
      throw new UserError(`${e.message}; check the model id and its API key`, { cause: e });
    } else {
      // Anything else (the provider still down after every retry, a sandbox failure) is the
      // infrastructure's, and the job retries the trial.
      if (e instanceof Error) error = e.message;
      await finish();
      throw e;
    }
  }
  await finish();

  const t = client.totals();
  const usage: Usage = {
    input_tokens: t.tokens.inputTokens,
    output_tokens: t.tokens.outputTokens,
    cached_tokens: t.tokens.cachedTokens,
    reasoning_tokens: t.tokens.reasoningTokens,
    cost_usd: t.costUsd,
    cost_known: t.unpricedCalls === 0,
    turns,
    parse_errors: parseErrors,
    model_sec: t.modelSec,
    command_sec: commandSec,
  };
  cfg.log(`${driver.agentName}: stopped (${stopReason}) after ${turns} turns, $${t.costUsd.toFixed(4)}`);
  return {
    selfTerminated: stopReason === "self",
    stopReason,
    usage,
    summaries,
    ...(error === undefined ? {} : { error }),
  };

  async function finish(): Promise<void> {
    await driver
      .close()
      .catch((e: unknown) => cfg.log(`${driver.agentName}: close failed: ${errorMessage(e)}`));
    const t = client.totals();
    mkdirSync(cfg.logDir, { recursive: true });
    traj.write(join(cfg.logDir, "trajectory.json"), {
      total_prompt_tokens: t.tokens.inputTokens,
      total_completion_tokens: t.tokens.outputTokens,
      total_cached_tokens: t.tokens.cachedTokens,
      total_cost_usd: t.costUsd,
      total_steps: traj.length,
      extra: {
        stop_reason: stopReason,
        ...(error === undefined ? {} : { error }),
        turns,
        parse_errors: parseErrors,
        summaries,
        reentries,
        reasoning_tokens: t.tokens.reasoningTokens,
        cache_write_tokens: t.tokens.cacheWriteTokens,
        model_calls: t.calls,
        unpriced_calls: t.unpricedCalls,
        model_sec: t.modelSec,
        retry_sec: t.retrySec,
        retries: t.retries,
        command_sec: commandSec,
        wall_sec: (performance.now() - t0) / 1000,
      },
    });
    driver.cast.write(join(cfg.logDir, "recording.cast"));
    writeFileSync(
      join(cfg.logDir, "model-calls.jsonl"),
      client.calls.map((c) => JSON.stringify(c)).join("\n") + (client.calls.length ? "\n" : ""),
    );
  }
}
