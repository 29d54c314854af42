import type { JsonValue, WorldEvent, WorldState } from "../model/types.js";
import type { WorldTaskSpec } from "../task/schema.js";
import type { RecordedCall } from "./counterfactual.js";
import type { RunLog } from "./log.js";

/** One call as the judge sees it: its call index, round, agent and what it did. */
export interface JudgeAction {
  index: number;
  round: number;
  agent: string;
  /** `tool {args} → ok; effect; effect` or `tool {args} → failed [code]: message`. */
  text: string;
}

/** The parts every judge prompt shares: the task's goal, the final state, the whole action log. */
export interface JudgeBrief {
  goal: string;
  finalState: string;
  log: string;
}

/** How every answer must look; the parser (judge-answer.ts) holds the model to it. */
export const JUDGE_SYSTEM_PROMPT = [
  "You judge a finished run of a team of agents in a game world: which of their actions caused the team's success.",
  "Each action is one tool call of one agent, named by its call index (#N). Rounds are numbered from 0; within a round the agents act in the order listed.",
  "Answer with only the JSON object asked for, no other text.",
].join("\n");

/** Effect fields of engine bookkeeping (lot ids, used-up lots, walked paths, the start of a move) rather than what happened. */
const HIDDEN_FIELDS = new Set([
  "lot",
  "lots",
  "consumed",
  "waypoints",
  "replaced",
  "from",
  "steps",
  "stock",
  "exchanges",
]);

function value(v: JsonValue): string {
  if (Array.isArray(v)) {
    if (v.length === 2 && typeof v[0] === "number" && typeof v[1] === "number") return `(${v[0]},${v[1]})`;
    return `[${v.map(value).join(", ")}]`;
  }
  if (v !== null && typeof v === "object") {
    if (typeof v.item === "string" && typeof v.qty === "number") return `${v.item}×${v.qty}`;
    return JSON.stringify(v);
  }
  return String(v);
}

/** An effect event in one line: its type and the fields that say what happened. */
export function renderEffect(e: Pick<WorldEvent, "type" | "data">): string {
  const fields = Object.entries(e.data)
    .filter(([k, v]) => !HIDDEN_FIELDS.has(k) && v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${value(v as JsonValue)}`);
  return fields.length === 0 ? e.type : `${e.type} ${fields.join(" ")}`;
}

/** Every call of the run, in order, with its round (from the run file) and its effects. */
export function judgeActions(log: RunLog, calls: readonly RecordedCall[]): JudgeAction[] {
  return log.actions.map((a) => {
    const args = a.args === null || (typeof a.args === "object" && Object.keys(a.args).length === 0);
    const head = `${a.tool}${args ? "" : ` ${JSON.stringify(a.args)}`}`;
    const ev = log.events.find((e) => e.seq === a.seq);
    const err = ev?.data.error;
    const failure =
      err !== null && typeof err === "object" && !Array.isArray(err)
        ? `failed [${String(err.code)}]: ${String(err.message)}`
        : "failed";
    const effects = (log.effects.get(a.seq) ?? []).map(renderEffect);
    const result = a.ok ? ["ok", ...effects].join("; ") : failure;
    return {
      index: a.index,
      round: calls[a.index]?.round ?? -1,
      agent: a.agent,
      text: `${head} → ${result}`,
    };
  });
}

function actionLine(a: JudgeAction): string {
  return `  #${a.index} ${a.agent}: ${a.text}`;
}

/** The action log round by round, each call on its own line. */
export function renderActionLog(actions: readonly JudgeAction[]): string {
  const lines: string[] = [];
  let round: number | null = null;
  for (const a of actions) {
    if (a.round !== round) {
      round = a.round;
      lines.push(`Round ${round}`);
    }
    lines.push(actionLine(a));
  }
  return lines.join("\n");
}

/** What each agent held, wore and where it stood at the end. */
export function renderFinalState(state: WorldState): string {
  const lines: string[] = [];
  state.agents.forEach((a) => {
    const held = new Map<string, number>();
    const worn: string[] = [];
    state.lots.forEach((lot) => {
      if (lot.qty === 0) return;
      if (lot.holder === `agent:${a.id}`) held.set(lot.item, (held.get(lot.item) ?? 0) + lot.qty);
      else if (lot.holder === `equipped:${a.id}`) worn.push(lot.item);
    });
    const items = [...held].map(([item, qty]) => `${item}×${qty}`).join(", ") || "nothing";
    lines.push(
      `- ${a.id} (${a.role}) at (${a.x},${a.y}), hp ${a.hp}/${a.maxHp}; holds ${items}; wears ${worn.join(", ") || "nothing"}`,
    );
  });
  return lines.join("\n");
}

/** The goal (each member's, and the success condition as the verifier checks it) and the final state. */
export function judgeBrief(
  spec: WorldTaskSpec,
  state: WorldState,
  verdict: { success: boolean; successDetail: string },
  actions: readonly JudgeAction[],
): JudgeBrief {
  return {
    goal: [
      ...spec.team.map((m) => `- ${m.id} (${m.role}): ${m.goal}`),
      `Success condition: ${JSON.stringify(spec.success)}`,
    ].join("\n"),
    finalState: [
      `Success: ${verdict.success ? "yes" : "no"} (${verdict.successDetail})`,
      renderFinalState(state),
    ].join("\n"),
    log: renderActionLog(actions),
  };
}

function common(b: JudgeBrief): string {
  return `Task goal:\n${b.goal}\n\nFinal state:\n${b.finalState}\n\nAction log:\n${b.log}`;
}

/** Step 1: the success actions, the calls that directly made the success condition true. */
export function successPrompt(b: JudgeBrief): string {
  return [
    common(b),
    "Step 1. Which actions directly made the success condition true (the success actions)?",
    'Reply with only {"success_actions": [call indices]}.',
  ].join("\n\n");
}

/**
 * Step 2, one round: which of the round's calls enabled a call already marked (the success
 * actions and every call marked in later rounds). The prompt's tail names the round, so a model
 * server's prompt cache keeps the shared head.
 */
export function roundPrompt(
  b: JudgeBrief,
  round: number,
  marked: readonly JudgeAction[],
  candidates: readonly JudgeAction[],
): string {
  return [
    common(b),
    `Marked so far (the success actions and the actions that enabled them):\n${marked.map(actionLine).join("\n")}`,
    `Step 2, round ${round}. Which actions of round ${round} enabled a marked action (made something it needed: an item, a position, a level, a piece of information, a weakened enemy)?\nActions of round ${round}:\n${candidates.map(actionLine).join("\n")}`,
    `Reply with only {"enabling": [call indices of round ${round} actions; [] if none]}.`,
  ].join("\n\n");
}
