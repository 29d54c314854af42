import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { digestOf } from "../../core/index.js";
import { parseTaskConfig } from "../../task/config.js";
import type { Task } from "../../task/types.js";
import type { World } from "../build/world.js";
import { loadWorldTask, type WorldTaskSpec } from "../task/index.js";

/** Seconds a world trial may run: the team's whole game, model calls included. */
const WORLD_TIMEOUT_SEC = 3600;

/**
 * A world task file as a Task of kind "world": its checkpoints are the rubric's subtasks (hidden,
 * binary, by weight), `dir` is the file itself (so a job resumes from it), and the checksum is
 * the file's bytes. Nothing of a Harbor folder applies; the config holds defaults and the category.
 */
export function worldTaskAsTask(file: string, spec: WorldTaskSpec): Task {
  const path = resolve(file);
  const config = parseTaskConfig(path, `[agent]\ntimeout_sec = ${WORLD_TIMEOUT_SEC}\n`);
  config.metadata.category = spec.category;
  config.metadata.difficulty = spec.variant_of === null ? "main" : "augmented";
  return {
    kind: "world",
    name: spec.id,
    dir: path,
    config,
    instruction: spec.team.map((m) => `${m.id} (${m.role}): ${m.goal}`).join("\n"),
    checksum: digestOf(readFileSync(path, "utf8")),
    rubric: {
      subtasks: spec.checkpoints.map((c) => ({
        id: c.id,
        weight: c.weight,
        kind: "binary" as const,
        visibility: "hidden" as const,
        description: c.id,
      })),
      source: path,
    },
    paths: { environment: dirname(path), solution: path, tests: path, instruction: path, config: path },
    image: null,
    warnings: [],
  };
}

/** Every world task of a file, or of a folder's YAML files (sorted by name). */
export function loadWorldTaskSet(path: string, world?: World): Task[] {
  const files = statSync(path).isFile()
    ? [path]
    : readdirSync(path)
        .filter((n) => /\.ya?ml$/.test(n))
        .sort()
        .map((n) => join(path, n));
  return files.map((f) => worldTaskAsTask(f, loadWorldTask(f, world)));
}
