import type { Outcome } from "../../src/core/index.js";

/** One synthetic attempt: which task, model and attempt, its R and outcome. */
export interface CalibrationAttempt {
  task: string;
  category: string;
  model: string;
  attempt: number;
  reward: number | null;
  outcome: Outcome;
}

export const MODELS = ["m1", "m2", "m3"] as const;

/**
 * Ten candidate tasks × three models × three attempts with known pass counts per model (an
 * attempt passes at R = 1, fails at `fail`), plus: two infra errors on t04 (to be excluded), a
 * grading error on t08 (counted as R = 0) and t11 with only two attempts (too few to place).
 */
const PLAN: { task: string; category: string; passes: [number, number, number]; fail: number }[] = [
  { task: "t01", category: "A", passes: [3, 3, 3], fail: 0.5 },
  { task: "t02", category: "A", passes: [3, 3, 1], fail: 0.5 },
  { task: "t03", category: "B", passes: [2, 2, 1], fail: 0.5 },
  { task: "t04", category: "A", passes: [2, 1, 1], fail: 0.5 },
  { task: "t05", category: "B", passes: [3, 1, 0], fail: 0.5 },
  { task: "t06", category: "C", passes: [1, 1, 1], fail: 0.5 },
  { task: "t07", category: "A", passes: [2, 0, 0], fail: 0.5 },
  { task: "t08", category: "B", passes: [1, 0, 0], fail: 0.5 },
  { task: "t09", category: "C", passes: [0, 0, 0], fail: 0.8 },
  { task: "t10", category: "C", passes: [0, 0, 0], fail: 0.1 },
];

export function calibrationAttempts(): CalibrationAttempt[] {
  const out: CalibrationAttempt[] = [];
  for (const p of PLAN) {
    MODELS.forEach((model, m) => {
      for (let a = 0; a < 3; a++) {
        const pass = a < (p.passes[m] as number);
        out.push({
          task: p.task,
          category: p.category,
          model,
          attempt: a,
          reward: pass ? 1 : p.fail,
          outcome: "completed",
        });
      }
    });
  }
  const extra = (
    task: string,
    category: string,
    model: string,
    attempt: number,
    reward: number | null,
    outcome: Outcome,
  ) => out.push({ task, category, model, attempt, reward, outcome });
  extra("t04", "A", "m1", 3, null, "infra_error");
  extra("t04", "A", "m1", 4, null, "infra_error");
  extra("t08", "B", "m2", 3, null, "grading_error");
  extra("t11", "C", "m1", 0, 1, "completed");
  extra("t11", "C", "m1", 1, 0.2, "completed");
  return out;
}

/** The expected order: most models passing, then solve rate, then mean R. */
export const EXPECTED_RANKING = ["t01", "t02", "t03", "t04", "t06", "t05", "t11", "t07", "t08", "t09", "t10"];
