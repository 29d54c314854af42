import type { Usage } from "../core/index.js";
import type { Mount, Sandbox } from "../sandbox/types.js";
import type { Task } from "../task/types.js";

/**
 * The agent interface. Oracle and nop implement it today; LLM harnesses and multi-agent teams
 * implement the same contract. An agent acts only through the sandbox it is given.
 */
export interface AgentContext {
  task: Task;
  sandbox: Sandbox;
  instruction: string;
  /** "provider:model" or null for agents without a model. */
  model: string | null;
  /** Wall-clock budget of the agent phase, already multiplied. */
  timeoutSec: number;
  /** Aborted when the phase's time is up or the job is stopping. */
  signal: AbortSignal;
  /** Host folder for the agent's logs, trajectory and recordings (`<trial>/agent`). */
  logDir: string;
  /** Progress lines for humans (stderr); never results. */
  log: (line: string) => void;
  /** Free-form options from the command line (--agent-opt k=v). */
  options: Record<string, string>;
  /**
   * Set in continue-until-timeout mode (`run --until-timeout`): an agent that declares completion
   * calls it; when the verdict is not `accept`, the agent shows `feedback` to its model and goes on
   * working until its budget ends. Agents without a turn loop may ignore it.
   */
  onDone?: () => Promise<DoneVerdict>;
  /**
   * Where this trial's model calls go: the per-trial model gateway on the host, when the runner
   * started one. Agents send every model call here (never to the provider directly) and present
   * `token`, never a real provider key.
   */
  modelEndpoint?: ModelEndpoint;
}

/**
 * A model gateway as one trial sees it. The same API is served on a loopback TCP port (for agent
 * loops that run on the host) and on a unix socket (bound into a sandbox that has no network,
 * where a small forwarder makes it reachable as http://127.0.0.1:PORT).
 */
export interface ModelEndpoint {
  /** Base URL on the host, e.g. `http://127.0.0.1:41234` (no trailing slash, no `/v1`). */
  hostUrl: string;
  /** Host path of a unix socket serving the same HTTP API. */
  socketPath: string;
  /** The per-trial credential to present as `Authorization: Bearer` or `x-api-key`. */
  token: string;
  /** The provider part of `provider:model` (e.g. "anthropic", "openai"). */
  provider: string;
  /** The model name to put in requests (the part after the first colon). */
  model: string;
}

export type DoneVerdict = { accept: true } | { accept: false; feedback: string };

/** What an agent's run reports back: how it stopped and what it used. */
export interface AgentRunResult {
  /** The agent said it was done (as opposed to running out of time or crashing). */
  selfTerminated: boolean;
  /** The agent stopped because its own budget (turns, wall clock) ran out: scored as a timeout. */
  budgetExhausted?: boolean;
  usage?: Partial<Usage>;
  /** Set when the agent itself failed (not the infrastructure). */
  error?: string;
}

/** Something that works on a task inside a sandbox until it finishes or its budget ends. */
export interface Agent {
  readonly name: string;
  /**
   * Host folders or files the agent's execs need bound into the sandbox (its install, a runtime,
   * the model endpoint's socket folder), asked for before the sandbox is made: the runner puts
   * them in SandboxSpec.mounts, present for the sandbox's life, because some providers (docker)
   * can bind only at creation. The agent may still pass the same binds per exec (ExecOptions.mounts)
   * when the sandbox it is given lacks them. Absent: the agent needs none.
   */
  sandboxMounts?(ctx: SandboxMountsContext): Promise<Mount[]>;
  run(ctx: AgentContext): Promise<AgentRunResult>;
}

/** What an agent knows when it is asked for its sandbox's binds (before the sandbox exists). */
export interface SandboxMountsContext {
  /** The trial's model endpoint, when the runner started a gateway (the same run() gets). */
  modelEndpoint?: ModelEndpoint;
  options: Record<string, string>;
  log: (line: string) => void;
  signal: AbortSignal;
}

/** Makes an agent from its key=value options (`--agent-opt`); throws a UserError on bad ones. */
export type AgentFactory = (options: Record<string, string>) => Agent;
