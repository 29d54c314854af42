import type { ModelMessage } from "ai";
import type { ModelResponse } from "../../models/index.js";
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
import { parseTerminusAnswer } from "./answer.js";
import {
  confirmMessage,
  firstMessage,
  outputMessage,
  parseErrorMessage,
  resumeMessage,
  TERMINUS_SYSTEM,
} from "./prompts.js";
import { TmuxSession } from "./tmux.js";

export const TERMINUS_VERSION = "1.0.0";
const WIDTH = 160;
const HEIGHT = 40;
const POLL_MS = 50;

const user = (content: string): ModelMessage => ({ role: "user", content });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Drives a tmux session from JSON answers: keystrokes in, new terminal output back. */
export class TerminusDriver implements LoopDriver {
  readonly agentName = "terminus";
  readonly version = TERMINUS_VERSION;
  readonly systemPrompt = TERMINUS_SYSTEM;
  readonly cast: CastRecorder;
  private pendingConfirm = false;

  constructor(
    private readonly tmux: TmuxSession,
    private readonly options: LoopOptions,
  ) {
    this.cast = new CastRecorder(tmux.width, tmux.height, "terminus");
  }

  private async observe(): Promise<string> {
    const out = await this.tmux.newOutput();
    this.cast.output(`${out}\n`);
    return capHeadTail(out, this.options.max_output_bytes);
  }

  async start(instruction: string): Promise<string> {
    return firstMessage(instruction, await this.observe());
  }

  async resume(instruction: string, summary: string): Promise<string> {
    return resumeMessage(
      instruction,
      summary,
      capHeadTail(await this.tmux.screen(), this.options.max_output_bytes),
    );
  }

  /**
   * Waits up to `sec`, returning early once the command is over: the shell is in the foreground,
   * the cursor has left the row the command was typed on (Enter was processed) and the screen
   * held still between two polls. Otherwise (an editor, a REPL, keys without Enter) it waits it out.
   */
  private async wait(sec: number, startRow: number, signal: AbortSignal): Promise<number> {
    const t0 = performance.now();
    const end = t0 + sec * 1000;
    let last: string | null = null;
    while (performance.now() < end && !signal.aborted) {
      await sleep(Math.min(POLL_MS, end - performance.now()));
      const st = await this.tmux.state();
      if (st.command !== this.tmux.shell || st.row <= startRow) {
        last = null;
        continue;
      }
      const screen = await this.tmux.screen();
      if (screen === last) break;
      last = screen;
    }
    return (performance.now() - t0) / 1000;
  }

  async handle(resp: ModelResponse, turn: number, signal: AbortSignal): Promise<TurnOutcome> {
    const parsed = parseTerminusAnswer(resp.text);
    if (!parsed.ok) {
      this.pendingConfirm = false;
      return {
        followUp: [user(parseErrorMessage(parsed.error))],
        done: false,
        parseError: true,
        commandSec: 0,
        message: resp.text,
        observations: [{ content: `parse error: ${parsed.error}` }],
      };
    }
    const a = parsed.answer;
    let commandSec = 0;
    // tmux runs commands in order, so a send with no wait is not awaited on its own: its reply
    // arrives before the next query's, saving a round trip per command.
    const sends: Promise<void>[] = [];
    for (const c of a.commands) {
      if (signal.aborted) break;
      this.cast.input(c.keystrokes);
      const sec = Math.min(c.duration, this.options.max_command_sec);
      const startRow = sec > 0 ? (await this.tmux.state()).row : 0;
      const sent = this.tmux.send(c.keystrokes);
      // Marked handled now; a failure still surfaces through Promise.all below.
      sent.catch(() => undefined);
      sends.push(sent);
      if (sec > 0) {
        await sent;
        commandSec += await this.wait(sec, startRow, signal);
      }
    }
    const [output] = await Promise.all([this.observe(), ...sends]);
    const done = a.task_complete && this.pendingConfirm;
    this.pendingConfirm = a.task_complete && !done;
    return {
      followUp: done ? [] : [user(this.pendingConfirm ? confirmMessage(output) : outputMessage(output))],
      done,
      parseError: false,
      commandSec,
      message: `Analysis: ${a.analysis}\nPlan: ${a.plan}`,
      toolCalls: a.commands.map((c, i) => ({
        tool_call_id: `t${turn}-${i + 1}`,
        function_name: "keystrokes",
        arguments: { keystrokes: c.keystrokes, duration: c.duration },
      })),
      observations: [{ content: output }],
    };
  }

  async close(): Promise<void> {
    await this.tmux.kill();
  }
}

export class TerminusAgent implements Agent {
  readonly name = "terminus";
  constructor(private readonly factoryOptions: Record<string, string> = {}) {}

  async run(ctx: AgentContext): Promise<AgentRunResult> {
    const { client, options } = setupFromContext(this.name, this.factoryOptions, ctx);
    const tmux = await TmuxSession.start(
      ctx.sandbox,
      { width: WIDTH, height: HEIGHT, socket: "/logs/tmux.sock", cwd: ctx.sandbox.spec.workdir },
      ctx.signal,
    );
    return runLoopAgent(new TerminusDriver(tmux, options), { client, options }, ctx);
  }
}

export const terminusAgentFactory: AgentFactory = (options) => new TerminusAgent(options);
