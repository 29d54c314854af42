import type { Rubric } from "../grading/types.js";

export type NetworkMode = "public" | "no-network" | "allowlist";

/** One `[[environment.mcp_servers]]` table (Harbor's MCPServerConfig). */
export interface McpServerConfig {
  name: string;
  transport: "sse" | "streamable-http" | "stdio";
  url: string | null;
  command: string | null;
  args: string[];
}

/**
 * task.toml, as Harbor defines it, plus longhaul's optional [requires]. Validated in
 * task/config.ts; what longhaul does with each field is tabled in docs/tasks.md.
 */
export interface TaskConfig {
  version: string;
  /** Harbor's free-form provenance string. */
  source: string | null;
  task: { name: string | null; description: string | null };
  metadata: {
    category: string;
    difficulty: string;
    expert_time_estimate_min: number | null;
    tags: string[];
    author_name: string | null;
  };
  agent: {
    timeout_sec: number;
    /** Applied over an image (looked up in it); a host task warns that it is not applied. */
    user: string | null;
    network_mode: NetworkMode | null;
    allowed_hosts: string[];
  };
  verifier: {
    timeout_sec: number;
    /** Given to the verifier's exec only, over [environment.env]. */
    env: Record<string, string>;
    /** Applied over an image (looked up in it); a host task warns that it is not applied. */
    user: string | null;
    network_mode: NetworkMode | null;
    allowed_hosts: string[];
    /** Over an image: a fresh copy of it, or the agent's root (unset: by the task's kind). */
    root?: "image" | "sandbox" | undefined;
  };
  /** `[solution.env]`: given to the oracle's (and partial's) script only, over [environment.env]. */
  solution: { env: Record<string, string> };
  environment: {
    cpus: number;
    memory_mb: number;
    storage_mb: number;
    /** Always 0 once loaded: a task asking for GPUs is refused. */
    gpus: number;
    /** Always "linux" once loaded: other systems are refused. */
    os: string;
    /** The effective network choice: `network_mode` when set, else `allow_internet` (Harbor's default true). */
    allow_internet: boolean;
    network_mode: NetworkMode | null;
    allowed_hosts: string[];
    workdir: string;
    docker_image: string | null;
    build_timeout_sec: number;
    /** Given to every agent-phase exec and to the verifier (Harbor: the container's environment). */
    env: Record<string, string>;
    /** Parsed and recorded; no built-in agent connects to MCP servers yet (a load warning says so). */
    mcp_servers: McpServerConfig[];
  };
  /** Host tools the task needs (checked before a trial starts). */
  requires: { host_tools: string[]; nested_sandbox: boolean };
}

/** A loaded, validated task folder (task.toml, instruction, environment, tests, solution). */
export interface Task {
  /** Folder name unless task.toml names it. */
  name: string;
  /** Absolute path of the task folder. */
  dir: string;
  config: TaskConfig;
  instruction: string;
  /** sha256 over every file's relative path and bytes, in sorted order. */
  checksum: string;
  rubric: Rubric;
  paths: { environment: string; solution: string; tests: string; instruction: string; config: string };
  /**
   * Where the task's image comes from, or null for a host task (runs over the host's system
   * folders, environment/ copied into the workdir). An image task's environment/ is the docker
   * build context and is never copied into the sandbox.
   */
  image: { dockerfile: string | null; dockerImage: string | null } | null;
  /** Load-time warnings (each names task.toml and the field); printed once by run and task check. */
  warnings: string[];
  /**
   * The task's kind when it is not a Harbor task folder (absent: "terminal"), e.g. "world"; the
   * runner runs it with the trial kind of that name (src/task/kinds.ts, src/runner/trial-kinds.ts).
   */
  kind?: string;
}
