import type { SubtaskKind, Visibility } from "../core/index.js";

/** task.toml, as Harbor defines it, plus longhaul's optional [requires]. Validated in task/config.ts. */
export interface TaskConfig {
  version: string;
  task: { name: string | null; description: string | null };
  metadata: {
    category: string;
    difficulty: string;
    expert_time_estimate_min: number | null;
    tags: string[];
    author_name: string | null;
  };
  agent: { timeout_sec: number };
  verifier: { timeout_sec: number };
  environment: {
    cpus: number;
    memory_mb: number;
    storage_mb: number;
    allow_internet: boolean;
    workdir: string;
    docker_image: string | null;
    build_timeout_sec: number;
  };
  /** Host tools the task needs (checked before a trial starts). */
  requires: { host_tools: string[] };
}

export interface RubricSubtask {
  id: string;
  weight: number;
  kind: SubtaskKind;
  visibility: Visibility;
  description: string;
}

export interface Rubric {
  subtasks: RubricSubtask[];
  /** Where it was read from (tests/rubric.toml), or null for the implicit one-subtask rubric. */
  source: string | null;
}

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
}
