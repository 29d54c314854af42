import type { ModelMessage } from "ai";
import type { ModelRequest, ModelResponse } from "../../models/index.js";
import {
  type JudgeParse,
  type JudgeStep,
  parseRoundAnswer,
  parseSuccessAnswer,
  stepName,
} from "./judge-answer.js";
import {
  JUDGE_SYSTEM_PROMPT,
  type JudgeAction,
  type JudgeBrief,
  roundPrompt,
  successPrompt,
} from "./judge-prompt.js";

/** Answers asked for per step before the judge is recorded as failed (the first and two retries). */
export const JUDGE_ATTEMPTS = 3;

/** What the judge needs of a model (a ModelClient, or a stand-in in tests). */
export interface JudgeModel {
  complete(req: ModelRequest): Promise<ModelResponse>;
}

/** An answer that did not parse and was sent back with what was wrong. */
export interface JudgeRejection {
  step: string;
  problem: string;
}

/** The judge gave no usable answer to one step within its attempts. */
export interface JudgeFailure {
  step: string;
  attempts: number;
  /** The last answer's problem. */
  problem: string;
}

/** What the judge answered, how many calls it took, and where it failed (if it did). */
export interface JudgeResult {
  /** Step 1: the call indices the judge chose as success actions (null if it failed there). */
  successActions: number[] | null;
  /** The judge's closure: the success actions and every call marked walking back (null if it failed). */
  closure: number[] | null;
  /** Step 2, the rounds asked (latest first) and the calls marked in each. */
  rounds: Array<{ round: number; marked: number[] }>;
  /** Model calls made, retries included. */
  modelCalls: number;
  rejected: JudgeRejection[];
  failure: JudgeFailure | null;
}

/**
 * AgentWorld's judge in two steps. (1) Given the goal, the final state and the action log, the
 * model picks the success actions. (2) It walks the rounds backward from the latest marked call's
 * round to the first: for each round, which of its calls enabled a call marked so far. Rounds after
 * the latest marked call are not asked (a call can only enable later calls), nor rounds whose
 * calls are all marked already; with no success actions there is no walk. A malformed answer is
 * sent back with what was wrong, up to JUDGE_ATTEMPTS answers a step; then the judge has failed
 * (recorded, not thrown). A failed model call (ModelCallError) is thrown: it is infrastructure.
 */
export async function runJudge(
  model: JudgeModel,
  brief: JudgeBrief,
  actions: readonly JudgeAction[],
): Promise<JudgeResult> {
  const out: JudgeResult = {
    successActions: null,
    closure: null,
    rounds: [],
    modelCalls: 0,
    rejected: [],
    failure: null,
  };
  const ask = async (step: JudgeStep, prompt: string, parse: (text: string) => JudgeParse) => {
    const messages: ModelMessage[] = [{ role: "user", content: prompt }];
    for (let attempt = 1; ; attempt++) {
      const res = await model.complete({ system: JUDGE_SYSTEM_PROMPT, messages });
      out.modelCalls++;
      const parsed = parse(res.text);
      if (parsed.ok) return parsed.actions;
      out.rejected.push({ step: stepName(step), problem: parsed.error.problem });
      if (attempt >= JUDGE_ATTEMPTS) {
        out.failure = { step: stepName(step), attempts: attempt, problem: parsed.error.problem };
        return null;
      }
      messages.push(...res.responseMessages, {
        role: "user",
        content: `Your answer was rejected: ${parsed.error.problem}\nReply again with only the JSON object asked for.`,
      });
    }
  };
  const success = await ask({ step: "success" }, successPrompt(brief), (t) =>
    parseSuccessAnswer(t, actions.length),
  );
  if (success === null) return out;
  out.successActions = success;
  const marked = new Set(success);
  const roundOf = new Map(actions.map((a) => [a.index, a.round]));
  const latest = Math.max(-1, ...success.map((i) => roundOf.get(i) ?? -1));
  const first = Math.min(...actions.map((a) => a.round));
  for (let round = latest; round >= first; round--) {
    const candidates = actions.filter((a) => a.round === round && !marked.has(a.index));
    if (candidates.length === 0) continue;
    const shown = actions.filter((a) => marked.has(a.index) && a.round >= round);
    // A marked call of the round named again is no error: marking it twice changes nothing.
    const allowed = new Set(actions.filter((a) => a.round === round).map((a) => a.index));
    const got = await ask({ step: "round", round }, roundPrompt(brief, round, shown, candidates), (t) =>
      parseRoundAnswer(t, round, allowed),
    );
    if (got === null) return out;
    out.rounds.push({ round, marked: got });
    for (const i of got) marked.add(i);
  }
  out.closure = [...marked].sort((a, b) => a - b);
  return out;
}
