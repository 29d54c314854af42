import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../core/index.js";
import type { Agent, AgentContext, AgentRunResult } from "./types.js";

/**
 * Runs one shell command inside the sandbox (`--agent shell --agent-opt cmd='…'`): a way to plug
 * in any external, non-LLM agent or a scripted baseline.
 */
export class ShellAgent implements Agent {
  readonly name = "shell";
  private readonly command: string;

  constructor(options: Record<string, string>) {
    const cmd = options.cmd;
    if (cmd === undefined || cmd.trim() === "") {
      throw new UserError("the shell agent needs --agent-opt cmd='COMMAND'");
    }
    this.command = cmd;
  }

  async run(ctx: AgentContext): Promise<AgentRunResult> {
    const result = await ctx.sandbox.exec(this.command, { timeoutSec: ctx.timeoutSec, signal: ctx.signal });
    mkdirSync(ctx.logDir, { recursive: true });
    writeFileSync(join(ctx.logDir, "shell.stdout.txt"), result.stdout);
    writeFileSync(join(ctx.logDir, "shell.stderr.txt"), result.stderr);
    return { selfTerminated: !result.timedOut, usage: { command_sec: result.durationSec, turns: 1 } };
  }
}
