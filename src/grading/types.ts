import type { SubtaskKind, Visibility } from "../core/trial-result.js";

/** A task's subtasks and weights (tests/rubric.toml), owned by grading; a Task carries one. */
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
