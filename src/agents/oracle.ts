import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent, AgentContext, AgentRunResult } from "./types.js";

/**
 * Runs a script from the task's solution/ folder inside the sandbox: solve.sh for `oracle`,
 * partial.sh for `partial`, mutants/NAME.sh for `mutant`. solution/ is mounted read-only at /solution for this agent only;
 * no other agent ever sees it.
 */
export class ScriptAgent implements Agent {
  readonly name: string;
  private readonly script: string;

  constructor(name: string, script: string) {
    this.name = name;
    this.script = script;
  }

  async run(ctx: AgentContext): Promise<AgentRunResult> {
    const scriptPath = join(ctx.task.paths.solution, this.script);
    if (!existsSync(scriptPath)) {
      // Recorded as this trial's agent_error rather than stopping the whole job.
      return {
        selfTerminated: false,
        error: `${scriptPath}: the ${this.name} agent needs solution/${this.script}`,
      };
    }
    const result = await ctx.sandbox.exec(["bash", `/solution/${this.script}`], {
      timeoutSec: ctx.timeoutSec,
      signal: ctx.signal,
      mounts: [{ hostPath: ctx.task.paths.solution, sandboxPath: "/solution", readonly: true }],
    });
    mkdirSync(ctx.logDir, { recursive: true });
    writeFileSync(join(ctx.logDir, `${this.name}.stdout.txt`), result.stdout);
    writeFileSync(join(ctx.logDir, `${this.name}.stderr.txt`), result.stderr);
    const usage = { command_sec: result.durationSec, turns: 1 };
    if (result.timedOut) return { selfTerminated: false, usage };
    if (result.exitCode !== 0) {
      return {
        selfTerminated: true,
        usage,
        error: `solution/${this.script} exited with ${result.exitCode ?? result.signal}: ${lastLine(result.stderr)}`,
      };
    }
    return { selfTerminated: true, usage };
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return (lines[lines.length - 1] ?? "").slice(0, 300);
}
