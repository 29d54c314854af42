import type { AgentFactory } from "../types.js";
import { claudeCode } from "./claude-code.js";
import { codex } from "./codex.js";
import { installedAgentFactory } from "./installed-agent.js";
import { qwenCode } from "./qwen-code.js";
import type { InstalledAgentDef } from "./types.js";

export { agentCacheRoot, ensureInstalled, installKey } from "./cache.js";
export { CLAUDE_CODE_VERSION, claudeCode } from "./claude-code.js";
export { CODEX_VERSION, codex } from "./codex.js";
export { FORWARDER_SCRIPT, PORT_PLACEHOLDER } from "./forwarder.js";
export { agentMounts, InstalledAgent, installedAgentFactory, SANDBOX_PATHS } from "./installed-agent.js";
export { QWEN_CODE_VERSION, qwenCode } from "./qwen-code.js";
export type * from "./types.js";

/** The installed agents longhaul ships, each pinned to one version by its lockfile. */
export const BUILTIN_INSTALLED_AGENTS: readonly InstalledAgentDef[] = [claudeCode, codex, qwenCode];

/** An installed agent as an entry of the agent registry (what `registerAgent` takes). */
export function installedAgent(def: InstalledAgentDef): {
  description: string;
  create: AgentFactory;
  needsModel: true;
} {
  return { description: def.description, create: installedAgentFactory(def), needsModel: true };
}
