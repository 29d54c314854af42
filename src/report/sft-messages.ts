import { SUMMARY_PROMPT } from "../agents/llm-loop/summary-prompt.js";
import type { AtifStep, AtifToolCall, Trajectory } from "../agents/llm-loop/trajectory.js";

/**
 * ATIF trajectory → chat messages for fine-tuning. Two conventions:
 * - `openai`: OpenAI's chat fine-tuning lines: tool call arguments are a JSON string, an
 *   assistant turn that only calls tools has `content: null`.
 * - `hf`: what Hugging Face chat templates read: tool call arguments are an object, tool results
 *   also carry the tool's `name`, content is always a string.
 */
export const SFT_FORMATS = ["openai", "hf"] as const;
export type SftFormat = (typeof SFT_FORMATS)[number];

export interface SftToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string | Record<string, unknown> };
}

export interface SftMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: SftToolCall[];
  tool_call_id?: string;
  name?: string;
}

export type Conversion =
  | { ok: true; messages: SftMessage[]; assistantTurns: number; toolCalls: number }
  | { ok: false; reason: string };

/**
 * The conversation a trajectory records. `instruction` is asked for only when the trajectory
 * holds no user step (a scripted agent's), so the commands it ran still answer the task.
 */
export function trajectoryToMessages(
  traj: Trajectory,
  format: SftFormat,
  instruction: () => string | null,
): Conversion {
  const agentSteps = traj.steps.filter((s) => s.source === "agent");
  if (agentSteps.length === 0) return { ok: false, reason: "no agent steps" };
  const messages: SftMessage[] = [];
  let assistantTurns = 0;
  let toolCalls = 0;
  for (const step of traj.steps) {
    if (step.source === "system") messages.push({ role: "system", content: step.message });
    else if (step.source === "user") messages.push({ role: "user", content: step.message });
    else {
      if (!messages.some((m) => m.role === "user")) {
        const text = instruction();
        if (text === null) return { ok: false, reason: "no user step and no task instruction" };
        messages.push({ role: "user", content: text });
      }
      const turn = agentMessages(step, format, toolCalls);
      assistantTurns += turn.filter((m) => m.role === "assistant").length;
      messages.push(...turn);
      toolCalls += step.extra?.kind === "summary" ? 0 : (step.tool_calls?.length ?? 0);
    }
  }
  // Placeholder summaries alone give no assistant message: nothing the model said is left.
  if (assistantTurns === 0) return { ok: false, reason: "no agent steps" };
  return { ok: true, messages, assistantTurns, toolCalls };
}

/**
 * One agent step: the assistant turn, then what it was shown (tool results or a user message).
 * Calls are renamed `call_<n>`, numbered through the record from `callsBefore + 1`: models and
 * servers reuse ids (each answer's calls numbered from 1, or one id for several calls of a turn),
 * and both conventions pair a tool message with its call by id, so ids must be unique.
 */
function agentMessages(step: AtifStep, format: SftFormat, callsBefore: number): SftMessage[] {
  if (step.extra?.kind === "summary") {
    // The history was replaced by a summary: the model was asked for it (trajectories from before
    // the request was recorded were asked the same), wrote it, then resumed from this message. A
    // placeholder summary is not the model's answer, so neither it nor its request is kept.
    const { request, resume_message: resume, stand_in: standIn } = step.extra;
    const asked: SftMessage[] =
      standIn === true
        ? []
        : [
            { role: "user", content: typeof request === "string" ? request : SUMMARY_PROMPT },
            { role: "assistant", content: step.message },
          ];
    return [...asked, ...(typeof resume === "string" ? [{ role: "user" as const, content: resume }] : [])];
  }
  const calls = (step.tool_calls ?? []).map((c, i) => ({ ...c, id: `call_${callsBefore + i + 1}` }));
  const assistant: SftMessage = {
    role: "assistant",
    content: step.message === "" && calls.length > 0 && format === "openai" ? null : step.message,
    ...(calls.length > 0 ? { tool_calls: calls.map((c) => toolCall(c, format)) } : {}),
  };
  // A result goes to the first call of its id still without one (the k-th result of an id that
  // k calls share answers the k-th); results beyond the calls of an id join its last call's.
  const answers = calls.map((): string[] => []);
  const loose: string[] = [];
  for (const r of step.observation?.results ?? []) {
    const same = calls.flatMap((c, i) => (c.tool_call_id === r.source_call_id ? [i] : []));
    const at = same.find((i) => answers[i]?.length === 0) ?? same.at(-1);
    if (at === undefined) loose.push(r.content);
    else answers[at]?.push(r.content);
  }
  if (calls.length === 0) {
    return loose.length > 0 ? [assistant, { role: "user", content: loose.join("\n") }] : [assistant];
  }
  // Every call gets a result message, as both conventions require. A screen observed once after
  // all of a turn's commands (terminus) answers the last call that has none of its own.
  const lastBare = answers.map((a) => a.length > 0).lastIndexOf(false);
  const tools = calls.map((c, i): SftMessage => {
    const own = answers[i] ?? [];
    const content = own.length > 0 ? own.join("\n") : i === lastBare ? loose.join("\n") : "";
    return {
      role: "tool",
      tool_call_id: c.id,
      ...(format === "hf" ? { name: c.function_name } : {}),
      content,
    };
  });
  // Loose output with every call answered on its own is still what the model saw next.
  const extra: SftMessage[] =
    lastBare === -1 && loose.length > 0 ? [{ role: "user", content: loose.join("\n") }] : [];
  return [assistant, ...tools, ...extra];
}

function toolCall(c: AtifToolCall & { id: string }, format: SftFormat): SftToolCall {
  return {
    id: c.id,
    type: "function",
    function: {
      name: c.function_name,
      arguments: format === "openai" ? JSON.stringify(c.arguments) : c.arguments,
    },
  };
}
