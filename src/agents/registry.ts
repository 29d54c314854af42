import { UserError } from "../core/index.js";
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

registerAgent("oracle", "runs the task's solution/solve.sh", () => new ScriptAgent("oracle", "solve.sh"));
registerAgent(
  "partial",
  "runs the task's solution/partial.sh",
  () => new ScriptAgent("partial", "partial.sh"),
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
