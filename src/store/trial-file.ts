import { readFileSync } from "node:fs";
import {
  errorMessage,
  fsProblem,
  issueText,
  type TrialResult,
  trialResultSchema,
  UserError,
} from "../core/index.js";

// Results are written atomically, so a bad one was damaged or edited by hand: the user's to fix.
export function parseTrialFile(path: string): TrialResult {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const problem = fsProblem(e, path);
    if (problem === null) throw e;
    throw corruptTrial(path, problem.slice(path.length + 2));
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw corruptTrial(path, `not a valid trial result (${errorMessage(e).split("\n")[0]})`);
  }
  const parsed = trialResultSchema.safeParse(data);
  if (!parsed.success) throw corruptTrial(path, `not a valid trial result (${issueText(parsed.error)})`);
  return parsed.data;
}

export function corruptTrial(path: string, why: string): UserError {
  return new UserError(`${path}: ${why}; remove its folder to run that trial again`);
}
