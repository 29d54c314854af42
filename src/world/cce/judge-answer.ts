import { z } from "zod";

/** Which answer of the judge: step 1 (the success actions) or step 2 at one round. */
export type JudgeStep = { step: "success" } | { step: "round"; round: number };

/** The step as the report names it: `step 1 (success actions)`, `step 2, round 3`. */
export function stepName(s: JudgeStep): string {
  return s.step === "success" ? "step 1 (success actions)" : `step 2, round ${s.round}`;
}

/** An answer of the judge that is not what was asked for; `problem` says what was wrong. */
export class JudgeAnswerError extends Error {
  readonly step: JudgeStep;
  readonly problem: string;
  constructor(step: JudgeStep, problem: string) {
    super(`${stepName(step)}: ${problem}`);
    this.name = "JudgeAnswerError";
    this.step = step;
    this.problem = problem;
  }
}

const indices = z.array(z.number().int().nonnegative());
const successSchema = z.object({ success_actions: indices });
const roundSchema = z.object({ enabling: indices });

/** A parsed answer: the call indices it names, or what was wrong with it. */
export type JudgeParse = { ok: true; actions: number[] } | { ok: false; error: JudgeAnswerError };

/** The JSON of an answer: the whole text, a fenced block, or the outermost braces. */
function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text)?.[1];
  const body = (fenced ?? text).trim();
  const from = body.indexOf("{");
  const to = body.lastIndexOf("}");
  return JSON.parse(from >= 0 && to > from ? body.slice(from, to + 1) : body);
}

function read<T extends z.ZodType>(step: JudgeStep, text: string, schema: T): z.infer<T> | JudgeAnswerError {
  let raw: unknown;
  try {
    raw = extractJson(text);
  } catch {
    const shown = text.trim().length > 80 ? `${text.trim().slice(0, 80)}…` : text.trim();
    return new JudgeAnswerError(step, `not JSON: ${JSON.stringify(shown)}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return new JudgeAnswerError(step, `${issue?.path.join(".") || "answer"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/**
 * Step 1's answer: `{"success_actions": [...]}`, every index one of the run's calls. Repeated
 * indices count once; the list comes back sorted.
 */
export function parseSuccessAnswer(text: string, calls: number): JudgeParse {
  const step: JudgeStep = { step: "success" };
  const r = read(step, text, successSchema);
  if (r instanceof JudgeAnswerError) return { ok: false, error: r };
  const bad = r.success_actions.find((i) => i >= calls);
  if (bad !== undefined)
    return {
      ok: false,
      error: new JudgeAnswerError(step, `#${bad} is not a call of the run (0…${calls - 1})`),
    };
  return { ok: true, actions: unique(r.success_actions) };
}

/**
 * A step-2 answer for one round: `{"enabling": [...]}`, every index a call of that round (`allowed`).
 * An index of another round is an error naming it: the walk marks one round at a time.
 */
export function parseRoundAnswer(text: string, round: number, allowed: ReadonlySet<number>): JudgeParse {
  const step: JudgeStep = { step: "round", round };
  const r = read(step, text, roundSchema);
  if (r instanceof JudgeAnswerError) return { ok: false, error: r };
  const bad = r.enabling.find((i) => !allowed.has(i));
  if (bad !== undefined)
    return { ok: false, error: new JudgeAnswerError(step, `#${bad} is not an action of round ${round}`) };
  return { ok: true, actions: unique(r.enabling) };
}

function unique(xs: readonly number[]): number[] {
  return [...new Set(xs)].sort((a, b) => a - b);
}
