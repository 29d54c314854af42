import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { InputError } from "../core/errors.js";
import { issuesToError, lineOfKey, parseTomlFile } from "../core/toml-source.js";
import { SUBTASK_KINDS, VISIBILITIES } from "../core/trial-result.js";
import { readUserText } from "../core/user-files.js";
import type { Rubric } from "./types.js";

export const RUBRIC_FILE = "rubric.toml";
export const IMPLICIT_SUBTASK_ID = "reward";
/** The largest subtask weight: weights are relative, and sums of any realistic rubric stay exact. */
export const MAX_WEIGHT = 1e9;

const subtaskSchema = z.object({
  id: z
    .string({ error: "must be a string" })
    .regex(/^[a-z0-9_]+$/, { error: "must match [a-z0-9_]+" })
    .refine((id) => id !== IMPLICIT_SUBTASK_ID, { error: '"reward" is reserved for the total' }),
  // Bounded so Σ w and Σ w·r stay finite: two weights of 1e308 made R NaN, and NaN passed the nop check.
  weight: z
    .number({ error: "must be a number > 0" })
    .positive({ error: "must be a number > 0" })
    .max(MAX_WEIGHT, { error: `must be at most ${MAX_WEIGHT}` }),
  kind: z.enum(SUBTASK_KINDS, { error: `must be one of ${SUBTASK_KINDS.join(", ")}` }),
  visibility: z.enum(VISIBILITIES, { error: `must be one of ${VISIBILITIES.join(", ")}` }),
  description: z.string({ error: "must be a string" }).default(""),
});

const rubricSchema = z.object({
  subtask: z
    .array(subtaskSchema, { error: "must be [[subtask]] tables" })
    .min(1, { error: "needs at least one [[subtask]] table" }),
});

/** The rubric every plain Harbor task gets: one hidden continuous subtask worth everything. */
export function implicitRubric(): Rubric {
  return {
    subtasks: [
      {
        id: IMPLICIT_SUBTASK_ID,
        weight: 1,
        kind: "continuous",
        visibility: "hidden",
        description: "The task's single reward",
      },
    ],
    source: null,
  };
}

/** Validate rubric.toml text; `file` is the path used in messages. */
export function parseRubric(file: string, text: string): Rubric {
  const data = parseTomlFile(file, text);
  if (data.subtask === undefined) {
    throw new InputError(file, undefined, "subtask", "needs at least one [[subtask]] table");
  }
  const result = rubricSchema.safeParse(data);
  if (!result.success) throw issuesToError(file, text, data, result.error.issues);
  const seen = new Map<string, number>();
  result.data.subtask.forEach((s, i) => {
    const first = seen.get(s.id);
    if (first !== undefined) {
      throw new InputError(
        file,
        lineOfKey(text, ["subtask", i, "id"]),
        `subtask.${i}.id`,
        `[[subtask]] #${i + 1} id "${s.id}" is already used by [[subtask]] #${first + 1}`,
      );
    }
    seen.set(s.id, i);
  });
  return { subtasks: result.data.subtask, source: file };
}

/**
 * The rubric of a task: `<tests>/rubric.toml` when present, else the implicit one.
 * `displayPath` is the file's path as shown in messages (relative, as the user gave the task).
 */
export function loadRubric(testsDir: string, displayPath: string = join(testsDir, RUBRIC_FILE)): Rubric {
  const path = join(testsDir, RUBRIC_FILE);
  if (!existsSync(path)) return implicitRubric();
  // Recorded relative to the task folder so results do not depend on where the task sits.
  return { ...parseRubric(displayPath, readUserText(path)), source: `tests/${RUBRIC_FILE}` };
}

/** Total weight; positive for every valid rubric. */
export function totalWeight(rubric: Rubric): number {
  return rubric.subtasks.reduce((sum, s) => sum + s.weight, 0);
}
