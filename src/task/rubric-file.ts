import { existsSync } from "node:fs";
import { join } from "node:path";
import { fieldLabel, lineOfKey, parseTomlFile } from "../core/toml-source.js";
import { readUserText } from "../core/user-files.js";
import { loadRubric, RUBRIC_FILE } from "../grading/rubric.js";
import type { Rubric } from "../grading/types.js";

/**
 * The keys rubric.toml defines (docs/tasks.md). The rubric's schema drops any other key, so a
 * misspelt one (`wieght`) would vanish unseen: each is a warning, as in task.toml.
 */
const KNOWN_TOP = ["subtask"] as const;
const KNOWN_SUBTASK = ["id", "weight", "kind", "visibility", "description"] as const;

/**
 * A task's rubric: `<testsDir>/rubric.toml` when present (a folder in its place is an error naming
 * it), else the implicit one. `shown` is the file's path as messages name it.
 */
export function loadTaskRubric(testsDir: string, shown: string): { rubric: Rubric; warnings: string[] } {
  const rubric = loadRubric(testsDir, shown);
  const path = join(testsDir, RUBRIC_FILE);
  return { rubric, warnings: existsSync(path) ? rubricKeyWarnings(shown, readUserText(path)) : [] };
}

/** Warnings for keys rubric.toml does not define; `text` has already passed parseRubric. */
export function rubricKeyWarnings(file: string, text: string): string[] {
  const data = parseTomlFile(file, text);
  const warnings: string[] = [];
  const warn = (path: (string | number)[]): void => {
    const line = lineOfKey(text, path);
    const at = line === undefined ? file : `${file}:${line}`;
    warnings.push(`${at}: ${fieldLabel(path)} is not a rubric.toml field; ignored`);
  };
  for (const key of Object.keys(data)) if (!(KNOWN_TOP as readonly string[]).includes(key)) warn([key]);
  const subtasks = Array.isArray(data.subtask) ? (data.subtask as unknown[]) : [];
  subtasks.forEach((s, i) => {
    if (s === null || typeof s !== "object") return;
    for (const key of Object.keys(s)) {
      if (!(KNOWN_SUBTASK as readonly string[]).includes(key)) warn(["subtask", i, key]);
    }
  });
  return warnings;
}
