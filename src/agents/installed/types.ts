import type { Trajectory } from "../llm-loop/trajectory.js";
import type { AgentRunResult } from "../types.js";

/**
 * An installed agent is data plus a little code: what to install, how to start it
 * non-interactively with the instruction, what environment and files it needs, and how its own
 * logs become an ATIF trajectory. Built-in agents and plugins define one; `installedAgent` turns
 * it into an Agent.
 */
export interface InstalledAgentDef {
  /** Registry name (`--agent NAME`). */
  name: string;
  description: string;
  install: NpmInstall | ScriptInstall;
  /**
   * The executable, relative to the install folder (`node_modules/...`). With `node: true` it is
   * a JavaScript entry run by the sandbox's Node; otherwise a native binary.
   */
  bin: string;
  node: boolean;
  /**
   * Files of the install (relative paths) made executable once installed: what a package's
   * skipped install script would have done for the helpers it ships (e.g. a bundled ripgrep).
   */
  executables?: string[];
  /** The agent's arguments after `bin`. */
  args(c: StartContext): string[];
  /** Its environment (on top of the task's). Values may hold `{{PORT}}`. */
  env(c: StartContext): Record<string, string>;
  /** Files written (under `c.home`, paths relative to it) before the agent starts. */
  files?(c: StartContext): { path: string; content: string }[];
  /** Turns what the agent printed and its exit into the run's result. */
  result(out: AgentOutput): AgentRunResult;
  /**
   * Its own session logs (copied out of its home into `hostHome`) as ATIF; null when it left
   * none, and the model gateway's record is used instead.
   */
  trajectory?(hostHome: string, meta: TrajectoryMeta): Trajectory | null;
}

/** Installed from the npm registry with a lockfile (`npm ci --ignore-scripts`). */
export interface NpmInstall {
  kind: "npm";
  package: string;
  /** An exact version, also the cache key. */
  version: string;
  /**
   * Folder holding package.json and package-lock.json pinning the whole tree (built-in agents
   * ship one); absent: `npm install --ignore-scripts PACKAGE@VERSION` without a lockfile.
   */
  lockDir?: string | (() => string);
}

/** Installed by a bash script run on the host with `$PREFIX` set to the install folder. */
export interface ScriptInstall {
  kind: "script";
  script: string;
  /** Cache key, e.g. `aider@0.86.1`: a changed script needs a changed key. */
  key: string;
}

/** What an agent's start is rendered from. Paths are inside the sandbox. */
export interface StartContext {
  instruction: string;
  /** The model name sent in requests (after `provider:`). */
  model: string;
  provider: string;
  /** `http://127.0.0.1:{{PORT}}`: the forwarder in front of the model endpoint (no `/v1`). */
  baseUrl: string;
  /** The per-trial credential (never a real provider key). */
  token: string;
  /** A writable folder for the agent's config and session logs (under /logs/agent). */
  home: string;
  workdir: string;
  /** Where the install folder is mounted. */
  installDir: string;
  /** The sandbox's Node (`.../bin/node`). */
  node: string;
  options: Record<string, string>;
}

/** What the agent's process left when it ended: its output, exit status and whether time ran out. */
export interface AgentOutput {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** What a log converter knows besides the logs: the agent, its version and the model. */
export interface TrajectoryMeta {
  agentName: string;
  version: string;
  /** `provider:model`. */
  modelId: string;
}
