import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { errorMessage } from "../core/errors.js";
import type { SubtaskKind, SubtaskScore } from "../core/trial-result.js";
import { readHarborReward } from "./harbor-reward.js";
import { IMPLICIT_SUBTASK_ID } from "./rubric.js";
import type { Rubric } from "./types.js";

/**
 * The reward contract: what a verifier leaves in /logs/verifier and how the host turns it into
 * R = Σ w·r / Σ w. The host never trusts a total written inside the sandbox; it recomputes R from
 * the rubric's weights. Documented in docs/tasks.md and docs/grader-kit.md.
 */
export const REWARD_JSON = "reward.json";
export const REWARD_TXT = "reward.txt";
export const REWARD_DETAILS_JSON = "reward-details.json";

export interface VerifierOutput {
  rewardJson: string | null;
  rewardTxt: string | null;
  /** Optional reward-details.json; only `subtasks.<id>.message` is read. */
  detailsJson?: string | null;
}

export interface TrialScore {
  subtasks: SubtaskScore[];
  /** null exactly when `failed`. */
  reward: number | null;
  gradingErrors: string[];
  /** Nothing usable was written: the trial is a grading error, never a silent 0. */
  failed: boolean;
  /**
   * A plain Harbor task's metrics: every numeric key of reward.json, or { reward } from
   * reward.txt; null for rubric tasks (their subtasks are the record) and unreadable files.
   */
  metrics: Record<string, number> | null;
}

const detailsSchema = z.object({
  subtasks: z.record(z.string(), z.looseObject({ message: z.string().nullish() }).catch({})).catch({}),
});

/**
 * Scores a verifier's output against the rubric. Any breach of the contract — a missing or
 * undeclared subtask id, a value that is not a finite number, outside [0, 1], or not 0/1 for a
 * binary subtask, a duplicated key — makes the whole trial a grading error (`failed`): a broken
 * reward file is the task's fault and must never become the agent's score.
 */
export function scoreTrial(input: VerifierOutput & { rubric: Rubric }): TrialScore {
  const { rubric } = input;
  const errors: string[] = [];
  let metrics: Record<string, number> | null = null;
  let values: Map<string, unknown> | null;
  if (rubric.source === null) {
    // A plain Harbor task: its files are read as Harbor reads them (harbor-reward.ts).
    const harbor = readHarborReward(input.rewardTxt, input.rewardTxt === null ? input.rewardJson : null);
    errors.push(...harbor.errors);
    metrics = harbor.metrics;
    values = harbor.reward === null ? null : new Map([[IMPLICIT_SUBTASK_ID, harbor.reward]]);
    // Only a parsed object is scanned for duplicate keys (the scan assumes valid JSON).
    if (input.rewardTxt === null && input.rewardJson !== null && harbor.metrics !== null) {
      const dups = duplicateTopLevelKeys(input.rewardJson);
      if (dups.length > 0) {
        errors.push(`${REWARD_JSON} names ${dups.map((d) => `"${d}"`).join(", ")} ${DUPLICATE_KEY_MARK}`);
      }
    }
  } else {
    values = readValues(input, rubric, errors);
  }
  if (values === null) return { subtasks: [], reward: null, gradingErrors: errors, failed: true, metrics };
  const messages = readMessages(input.detailsJson ?? null, errors);
  let violated = hasDuplicateError(errors);

  const declared = new Set(rubric.subtasks.map((s) => s.id));
  const subtasks: SubtaskScore[] = rubric.subtasks.map((s) => {
    const { score, error } = checkValue(s.id, s.kind, values.get(s.id), values.has(s.id));
    if (error !== null) {
      errors.push(error);
      violated = true;
    }
    return {
      id: s.id,
      weight: s.weight,
      kind: s.kind,
      visibility: s.visibility,
      score,
      error,
      message: messages.get(s.id) ?? null,
    };
  });
  const unknown = [...values.keys()].filter((id) => !declared.has(id) && id !== IMPLICIT_SUBTASK_ID);
  // A task without rubric.toml declares nothing but `reward`; the extra keys it writes are Harbor
  // metrics, not misspelt subtasks.
  if (unknown.length > 0 && rubric.source !== null) {
    errors.push(`${REWARD_JSON} has ids the rubric does not declare: ${unknown.sort().join(", ")}`);
    violated = true;
  }
  if (violated) return { subtasks, reward: null, gradingErrors: errors, failed: true, metrics };
  return { subtasks, reward: weightedReward(subtasks), gradingErrors: errors, failed: false, metrics };
}

function hasDuplicateError(errors: readonly string[]): boolean {
  return errors.some((e) => e.includes(DUPLICATE_KEY_MARK));
}

const DUPLICATE_KEY_MARK = "more than once";

/**
 * R = Σ w·r / Σ w, kept inside [0, 1] and rounded to 12 decimals: the sum's float noise
 * (0.9499999999999998 for an exact 0.95) must not reach the stored result and its thresholds.
 */
export function weightedReward(subtasks: readonly Pick<SubtaskScore, "weight" | "score">[]): number {
  let num = 0;
  let den = 0;
  for (const s of subtasks) {
    num += s.weight * s.score;
    den += s.weight;
  }
  if (den <= 0) return 0;
  return Math.min(1, Math.max(0, Math.round((num / den) * 1e12) / 1e12));
}

function checkValue(
  id: string,
  kind: SubtaskKind,
  value: unknown,
  present: boolean,
): { score: number; error: string | null } {
  if (!present) return { score: 0, error: `reward file: subtask "${id}" is missing` };
  if (typeof value !== "number") {
    return {
      score: 0,
      error: `reward file: subtask "${id}": expected a number in [0, 1], got ${show(value)}`,
    };
  }
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    return { score: 0, error: `reward file: subtask "${id}": ${value} is outside [0, 1]` };
  }
  if (kind === "binary" && value !== 0 && value !== 1) {
    return { score: 0, error: `reward file: subtask "${id}" is binary but scored ${value} (must be 0 or 1)` };
  }
  return { score: value, error: null };
}

/** The per-subtask values, or null when the output is unusable (errors says why). */
function readValues(input: VerifierOutput, rubric: Rubric, errors: string[]): Map<string, unknown> | null {
  if (input.rewardJson !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input.rewardJson);
    } catch (e) {
      errors.push(`${REWARD_JSON} is not valid JSON: ${errorMessage(e)}`);
      return null;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      errors.push(`${REWARD_JSON} must be a JSON object of subtask id → number, got ${show(parsed)}`);
      return null;
    }
    const dups = duplicateTopLevelKeys(input.rewardJson);
    if (dups.length > 0) {
      errors.push(`${REWARD_JSON} names ${dups.map((d) => `"${d}"`).join(", ")} ${DUPLICATE_KEY_MARK}`);
    }
    return new Map(Object.entries(parsed));
  }
  if (input.rewardTxt !== null) {
    const trimmed = input.rewardTxt.trim();
    // Plain decimal only: Number() would also accept "0x1", "0b1", "Infinity" and "".
    const value = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
    if (Number.isNaN(value)) {
      errors.push(`${REWARD_TXT} must hold one number, got ${show(trimmed.slice(0, 80))}`);
      return null;
    }
    const only = rubric.subtasks.length === 1 ? rubric.subtasks[0] : undefined;
    if (only === undefined) {
      errors.push(
        `${REWARD_TXT} holds one number but the rubric declares ${rubric.subtasks.length} subtasks; write ${REWARD_JSON}`,
      );
      return null;
    }
    return new Map([[only.id, value]]);
  }
  errors.push(`the verifier wrote neither ${REWARD_JSON} nor ${REWARD_TXT}`);
  return null;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Keys that occur more than once at the top level of a JSON object text. JSON.parse keeps the last
 * silently, so a reward file with `"a": 0, ..., "a": 1` would otherwise pass unnoticed.
 */
export function duplicateTopLevelKeys(text: string): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  let depth = 0;
  let i = 0;
  let expectKey = false;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (depth === 1 && expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as unknown;
        if (typeof key === "string") {
          if (seen.has(key)) dups.add(key);
          seen.add(key);
        }
        expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === "{" || c === "[") {
      depth += 1;
      expectKey = depth === 1 && c === "{";
    } else if (c === "}" || c === "]") depth -= 1;
    else if (c === "," && depth === 1) expectKey = true;
    i += 1;
  }
  return [...dups].sort();
}

function readMessages(detailsJson: string | null, errors: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (detailsJson === null) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(detailsJson);
  } catch (e) {
    errors.push(`${REWARD_DETAILS_JSON} ignored: not valid JSON: ${errorMessage(e)}`);
    return out;
  }
  const details = detailsSchema.safeParse(parsed);
  if (!details.success) {
    errors.push(`${REWARD_DETAILS_JSON} ignored: expected { "subtasks": { id: { "message": … } } }`);
    return out;
  }
  for (const [id, entry] of Object.entries(details.data.subtasks)) {
    if (typeof entry.message === "string") out.set(id, entry.message);
  }
  return out;
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** Read the verifier's files from a host folder (the trial's copy of /logs/verifier). */
export async function readVerifierOutput(dir: string): Promise<VerifierOutput> {
  const read = async (name: string): Promise<string | null> => {
    const path = join(dir, name);
    return existsSync(path) ? await readFile(path, "utf8") : null;
  };
  return {
    rewardJson: await read(REWARD_JSON),
    rewardTxt: await read(REWARD_TXT),
    detailsJson: await read(REWARD_DETAILS_JSON),
  };
}

/** readVerifierOutput + scoreTrial. */
export async function scoreVerifierDir(dir: string, rubric: Rubric): Promise<TrialScore> {
  return scoreTrial({ ...(await readVerifierOutput(dir)), rubric });
}
