import type { ModelMessage, ToolResultPart } from "ai";
import { errorMessage } from "../../core/index.js";
import type { ModelResponse, ToolCallOut } from "../../models/index.js";
import type { Sandbox } from "../../sandbox/types.js";
import {
  CastRecorder,
  capHeadTail,
  type LoopDriver,
  type LoopOptions,
  runLoopAgent,
  setupFromContext,
  type TurnOutcome,
} from "../llm-loop/index.js";
import type { Agent, AgentContext, AgentFactory, AgentRunResult } from "../types.js";
import { AGENT_TOOLS, execInput, readInput, TOOLS_SYSTEM, writeInput } from "./tools.js";

export const TOOLS_AGENT_VERSION = "1.0.0";
const DEFAULT_EXEC_SEC = 120;

interface ToolRun {
  text: string;
  sec: number;
  error: boolean;
}

/** The same loop as terminus, on native tool calling: each call is run and its result sent back. */
export class ToolsDriver implements LoopDriver {
  readonly agentName = "tools";
  readonly version = TOOLS_AGENT_VERSION;
  readonly systemPrompt = TOOLS_SYSTEM;
  readonly tools = AGENT_TOOLS;
  readonly cast = new CastRecorder(120, 40, "tools");

  constructor(
    private readonly sandbox: Sandbox,
    private readonly options: LoopOptions,
  ) {}

  async start(instruction: string): Promise<string> {
    return `Task:\n${instruction}\n\nThe working directory is ${this.sandbox.spec.workdir}.`;
  }

  async resume(instruction: string, summary: string): Promise<string> {
    return `Task:\n${instruction}\n\nSummary of your work so far (earlier turns were removed to save space):\n${summary}\n\nContinue from here.`;
  }

  private cap(s: string): string {
    return capHeadTail(s, this.options.max_output_bytes);
  }

  private async runCall(c: ToolCallOut, signal: AbortSignal): Promise<ToolRun> {
    const t0 = performance.now();
    const done = (text: string, error = false): ToolRun => ({
      text,
      error,
      sec: (performance.now() - t0) / 1000,
    });
    if (c.invalid) return done(`error: invalid call to ${c.name}: ${c.error ?? "bad arguments"}`, true);
    try {
      if (c.name === "exec") {
        const a = execInput.parse(c.input);
        const timeoutSec = Math.min(a.timeout_sec ?? DEFAULT_EXEC_SEC, this.options.max_command_sec);
        this.cast.output(`$ ${a.command}\n`);
        const r = await this.sandbox.exec(a.command, {
          timeoutSec,
          signal,
          maxOutputBytes: 4 * this.options.max_output_bytes,
        });
        const status = r.timedOut ? `timed out after ${timeoutSec} s` : `exit code ${r.exitCode ?? r.signal}`;
        const text = `${status}\n${r.stdout}${r.stderr ? `\n[stderr]\n${r.stderr}` : ""}`;
        this.cast.output(`${r.stdout}${r.stderr}`);
        return done(this.cap(text));
      }
      if (c.name === "read_file") {
        const a = readInput.parse(c.input);
        const r = await this.sandbox.exec(["cat", "--", a.path], { timeoutSec: 30, signal });
        return r.exitCode === 0 ? done(this.cap(r.stdout)) : done(`error: ${r.stderr.trim()}`, true);
      }
      if (c.name === "write_file") {
        const a = writeInput.parse(c.input);
        const script = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"';
        const r = await this.sandbox.exec(["bash", "-c", script, "write_file", a.path], {
          stdin: a.content,
          timeoutSec: 30,
          signal,
        });
        return r.exitCode === 0
          ? done(`wrote ${Buffer.byteLength(a.content)} bytes to ${a.path}`)
          : done(`error: ${r.stderr.trim()}`, true);
      }
      return done(`error: unknown tool ${c.name}`, true);
    } catch (e) {
      if (signal.aborted) throw e;
      return done(`error: ${errorMessage(e)}`, true);
    }
  }

  async handle(resp: ModelResponse, _turn: number, signal: AbortSignal): Promise<TurnOutcome> {
    const calls = resp.toolCalls;
    if (calls.length === 0) {
      const why = resp.text.trim() === "" ? "the answer was empty" : "the answer called no tool";
      return {
        followUp: [
          { role: "user", content: `${why}. Act through the tools; call finish when the task is done.` },
        ],
        done: false,
        parseError: true,
        commandSec: 0,
        message: resp.text,
        observations: [{ content: `parse error: ${why}` }],
      };
    }
    const results: ToolResultPart[] = [];
    let commandSec = 0;
    let parseError = false;
    let finished = false;
    const observations: { source_call_id: string; content: string }[] = [];
    for (const c of calls) {
      if (c.name === "finish" && !c.invalid) {
        finished = true;
        results.push(result(c, "finished"));
        // Recorded like any result, so the trajectory answers every call the model made.
        observations.push({ source_call_id: c.id, content: "finished" });
        continue;
      }
      const r = await this.runCall(c, signal);
      commandSec += r.sec;
      if (c.invalid) parseError = true;
      results.push(result(c, r.text));
      observations.push({ source_call_id: c.id, content: r.text });
    }
    const followUp: ModelMessage[] = [{ role: "tool", content: results }];
    return {
      followUp,
      done: finished,
      parseError,
      commandSec,
      message: resp.text,
      toolCalls: calls.map((c) => ({
        tool_call_id: c.id,
        function_name: c.name,
        arguments:
          typeof c.input === "object" && c.input !== null
            ? (c.input as Record<string, unknown>)
            : { raw: c.input },
      })),
      observations,
    };
  }

  async close(): Promise<void> {}
}

function result(c: ToolCallOut, text: string): ToolResultPart {
  return { type: "tool-result", toolCallId: c.id, toolName: c.name, output: { type: "text", value: text } };
}

export class ToolsAgent implements Agent {
  readonly name = "tools";
  constructor(private readonly factoryOptions: Record<string, string> = {}) {}

  async run(ctx: AgentContext): Promise<AgentRunResult> {
    const { client, options } = setupFromContext(this.name, this.factoryOptions, ctx);
    return runLoopAgent(new ToolsDriver(ctx.sandbox, options), { client, options }, ctx);
  }
}

export const toolsAgentFactory: AgentFactory = (options) => new ToolsAgent(options);
