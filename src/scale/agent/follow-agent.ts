import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TrajectoryRecorder } from "../../agents/llm-loop/trajectory.js";
import type { Agent, AgentContext, AgentRunResult } from "../../agents/types.js";
import type { Mount } from "../../sandbox/types.js";
import { installCommand, wrapperSource } from "./channel-wrapper.js";
import { FollowError } from "./follow-error.js";
import { type FollowSolver, parseFollowOptions, solverFor } from "./follow-options.js";
import { type FollowPlan, planFollow } from "./follow-plan.js";

/** One command the agent runs in the sandbox. */
export interface FollowCommand {
  /** What the command is for ("d2.1", "check d2.1", "root solution", "wrap program"). */
  label: string;
  run: string | string[];
  cwd?: string;
  stdin?: string;
  mounts?: Mount[];
}

const SOLUTION = "/solution";

/** Single-quotes a word for sh. */
function q(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

/**
 * The commands that carry out a plan, in order: every environment update's published commands
 * (newest update first), each step followed by a check that the files its access text names are
 * back; then the root task's solution; for an input channel, then the program wrapper.
 */
export function followCommands(plan: FollowPlan, solverDir: string): FollowCommand[] {
  const out: FollowCommand[] = [];
  if (plan.kind === "env") {
    for (const section of plan.sections) {
      for (const step of section.steps) {
        for (const c of step.commands) out.push({ label: step.label, run: c.run, cwd: section.workdir });
        if (step.targets.length > 0) {
          out.push({
            label: `check ${step.label}`,
            run: `for p in ${step.targets.map(q).join(" ")}; do [ -e "$p" ] || { echo "${step.label} (${step.transform}): $p is not back" >&2; exit 1; }; done`,
            cwd: section.workdir,
          });
        }
      }
    }
  }
  out.push({
    label: "root solution",
    run: ["bash", `${SOLUTION}/solve.sh`],
    mounts: [{ hostPath: solverDir, sandboxPath: SOLUTION, readonly: true }],
  });
  if (plan.kind === "channel") {
    out.push({ label: "wrap program", run: installCommand(plan.decl), stdin: wrapperSource(plan.decl) });
  }
  return out;
}

/**
 * `follow`: a scripted agent that reads only the public instruction. It parses every
 * `## Environment update` section into a restore plan (an unknown sentence is an error naming
 * it), runs it, then runs the root task's solution — its one skill — from `--agent-opt
 * root=ROOT_TASK` (its solution/), `--agent-opt solver=DIR` (a folder with solve.sh) or
 * `--agent-opt roots=DATASET` (a folder of root tasks: the one whose folder name is the longest
 * prefix of the child's task name, so one option serves a lineage of every bundled task). It
 * never reads the child's tests/, solution/, res.json or lineage files.
 */
export class FollowAgent implements Agent {
  readonly name = "follow";
  private readonly solver: FollowSolver;

  constructor(options: Record<string, string>) {
    this.solver = parseFollowOptions(options);
  }

  /** The solution folder for `taskName`: the given one, or the matching root's of `roots`. */
  private solverFor(taskName: string): string | null {
    return solverFor(this.solver, taskName);
  }

  async run(ctx: AgentContext): Promise<AgentRunResult> {
    mkdirSync(ctx.logDir, { recursive: true });
    const traj = new TrajectoryRecorder({ name: "follow", version: "1", model_name: "none" });
    traj.add({ source: "user", message: ctx.instruction });
    const log: string[] = [];
    let commandSec = 0;
    let turns = 0;
    const finish = (result: AgentRunResult): AgentRunResult => {
      traj.write(join(ctx.logDir, "trajectory.json"), {
        total_prompt_tokens: 0,
        total_completion_tokens: 0,
        total_cached_tokens: 0,
        total_cost_usd: 0,
        total_steps: turns,
      });
      writeFileSync(join(ctx.logDir, "follow.log"), log.join("\n"));
      return { ...result, usage: { turns, command_sec: commandSec } };
    };
    const solverDir = this.solverFor(ctx.task.name);
    if (solverDir === null) {
      return finish({
        selfTerminated: false,
        error: `${this.solver.rootsDir}: no root task folder whose name starts the task name ${ctx.task.name}`,
      });
    }
    if (!existsSync(join(solverDir, "solve.sh"))) {
      return finish({
        selfTerminated: false,
        error: `${solverDir}: the follow agent needs solve.sh there`,
      });
    }
    let commands: FollowCommand[];
    try {
      const plan = planFollow(ctx.instruction);
      commands = followCommands(plan, solverDir);
      traj.add({ source: "agent", message: describePlan(plan) });
    } catch (e) {
      if (!(e instanceof FollowError)) throw e;
      log.push(`cannot follow the instruction: ${e.message}`);
      traj.add({ source: "agent", message: `cannot follow the instruction: ${e.message}` });
      return finish({ selfTerminated: true, error: `follow: ${e.message}` });
    }
    const deadline = Date.now() + ctx.timeoutSec * 1000;
    for (const c of commands) {
      const left = Math.max(1, Math.floor((deadline - Date.now()) / 1000));
      const id = `call-${turns + 1}`;
      const shown = typeof c.run === "string" ? c.run : c.run.join(" ");
      const r = await ctx.sandbox.exec(c.run, {
        timeoutSec: left,
        signal: ctx.signal,
        ...(c.cwd !== undefined ? { cwd: c.cwd } : {}),
        ...(c.stdin !== undefined ? { stdin: c.stdin } : {}),
        ...(c.mounts !== undefined ? { mounts: c.mounts } : {}),
      });
      turns++;
      commandSec += r.durationSec;
      const status = r.timedOut ? "timed out" : `exit ${r.exitCode ?? r.signal}`;
      log.push(`$ [${c.label}] ${shown}`, `# ${status} (${r.durationSec.toFixed(2)} s)`);
      if (r.stdout.trim() !== "") log.push(r.stdout.trimEnd());
      if (r.stderr.trim() !== "") log.push(r.stderr.trimEnd());
      traj.add({
        source: "agent",
        message: c.label,
        tool_calls: [{ tool_call_id: id, function_name: "exec", arguments: { command: shown } }],
        observation: {
          results: [{ source_call_id: id, content: `${status}\n${tail(r.stdout)}${tail(r.stderr)}` }],
        },
      });
      if (r.timedOut) return finish({ selfTerminated: false });
      if (r.exitCode !== 0) {
        return finish({ selfTerminated: true, error: `${c.label}: ${status}: ${lastLine(r.stderr)}` });
      }
    }
    return finish({ selfTerminated: true });
  }
}

function describePlan(plan: FollowPlan): string {
  if (plan.kind === "none") return "no environment update: run the root solution";
  if (plan.kind === "channel") {
    const steps = plan.decl.steps.map((s) => s.name).join(" → ");
    return `input channel of ${plan.decl.program} (${plan.decl.input_kind}): ${steps}; run the root solution, then wrap the program to undo it`;
  }
  const steps = plan.sections.flatMap((s) => s.steps.map((t) => `${t.label} ${t.transform}`));
  return `undo ${steps.join(", ")}; then run the root solution`;
}

function tail(s: string): string {
  const t = s.trimEnd();
  return t === "" ? "" : `${t.slice(-2000)}\n`;
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return (lines[lines.length - 1] ?? "").slice(0, 300);
}
