import { UserError } from "../core/index.js";
import { MUTANT_NAME } from "../task/mutants.js";
import { BUILTIN_INSTALLED_AGENTS, installedAgent } from "./installed/index.js";
import { NopAgent } from "./nop.js";
import { ScriptAgent } from "./oracle.js";
import { ShellAgent } from "./shell.js";
import { terminusAgentFactory } from "./terminus/index.js";
import { toolsAgentFactory } from "./tools-agent/index.js";
import type { Agent, AgentFactory } from "./types.js";

interface Entry {
  factory: AgentFactory;
  description: string;
  /** The agent drives a model and cannot run without --model. */
  needsModel: boolean;
}

const factories = new Map<string, Entry>();

export function registerAgent(
  name: string,
  description: string,
  factory: AgentFactory,
  options: { needsModel?: boolean } = {},
): void {
  factories.set(name, { factory, description, needsModel: options.needsModel ?? false });
}

export function agentNeedsModel(name: string): boolean {
  return factories.get(name)?.needsModel ?? false;
}

export function createAgent(name: string, options: Record<string, string> = {}): Agent {
  const entry = factories.get(name);
  if (!entry) {
    throw new UserError(`unknown agent "${name}"; known agents: ${[...factories.keys()].sort().join(", ")}`);
  }
  return entry.factory(options);
}

export function listAgents(): { name: string; description: string }[] {
  return [...factories.entries()]
    .map(([name, e]) => ({ name, description: e.description }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The mutant to run: a plain file name, so the script can only come from solution/mutants/. */
function mutantName(options: Record<string, string>): string {
  const name = options.name;
  if (name === undefined || !MUTANT_NAME.test(name)) {
    throw new UserError(
      `agent mutant needs --agent-opt name=NAME, NAME a file solution/mutants/NAME.sh (letters, digits, ._-); got ${name === undefined ? "none" : JSON.stringify(name)}`,
    );
  }
  return name;
}

registerAgent("oracle", "runs the task's solution/solve.sh", () => new ScriptAgent("oracle", "solve.sh"));
registerAgent(
  "partial",
  "runs the task's solution/partial.sh",
  () => new ScriptAgent("partial", "partial.sh"),
);
registerAgent(
  "mutant",
  "runs the task's solution/mutants/NAME.sh (--agent-opt name=NAME), a known-wrong solution",
  (o) => new ScriptAgent("mutant", `mutants/${mutantName(o)}.sh`),
);
registerAgent("nop", "does nothing", () => new NopAgent());
registerAgent("shell", "runs --agent-opt cmd='…' in the sandbox", (o) => new ShellAgent(o));
registerAgent(
  "terminus",
  "a model drives a tmux terminal in the sandbox (needs --model)",
  terminusAgentFactory,
  { needsModel: true },
);
registerAgent(
  "tools",
  "a model with exec/read_file/write_file/finish tools (needs --model)",
  toolsAgentFactory,
  { needsModel: true },
);
for (const def of BUILTIN_INSTALLED_AGENTS) {
  const entry = installedAgent(def);
  registerAgent(def.name, entry.description, entry.create, { needsModel: true });
}
