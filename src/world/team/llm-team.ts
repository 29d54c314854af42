import type { ModelMessage, ToolSet } from "ai";
import type { z } from "zod";
import { UserError } from "../../core/index.js";
import { ModelClient, settingsFromOptions } from "../../models/index.js";
import { toolSpec } from "../../models/tool-spec.js";
import { TOOL_ARGS, TOOL_DESCRIPTIONS, TOOL_NAMES } from "../model/tool-args.js";
import { listWorldTools } from "../tools/registry.js";
import { renderObservation } from "./render-observation.js";
import type { TeamAgent, TeamAgentDefinition, TeamContext, TeamMember } from "./types.js";

const WAIT = { tool: "wait", args: {} } as const;
/** Turns of its own history each agent keeps in its prompt (older ones are dropped whole). */
const DEFAULT_MEMORY_TURNS = 8;

/** The 13 built-in tools and every registered one (a plugin's); the engine refuses what a role may not use. */
function worldTools(): ToolSet {
  // No prototype: a model naming `constructor` or `__proto__` must find no tool here, not one
  // inherited from Object that the SDK would take for a real one.
  const tools: ToolSet = Object.create(null);
  for (const name of TOOL_NAMES) {
    // Widened to what every tool's arguments have in common, so one toolSpec() call fits all 13.
    const inputSchema: z.ZodType<Record<string, unknown>> = TOOL_ARGS[name];
    tools[name] = toolSpec({ description: TOOL_DESCRIPTIONS[name], inputSchema });
  }
  for (const t of listWorldTools()) {
    if (t.name in tools) continue;
    tools[t.name] = toolSpec({
      description: t.description,
      inputSchema: t.args as z.ZodType<Record<string, unknown>>,
    });
  }
  return tools;
}

function systemPrompt(m: TeamMember, team: readonly TeamMember[]): string {
  // A team of one (the merged baseline) has no one to talk to or hand items to.
  const alone = team.length === 1;
  return [
    alone
      ? `You are ${m.id} (${m.role}), playing alone in a game world.`
      : `You are ${m.id}, the ${m.role} of a team in a game world: ${team.map((t) => `${t.id} (${t.role})`).join(", ")}.`,
    `Your goal: ${m.goal}`,
    alone
      ? "Each turn you see your surroundings and make exactly one tool call. Call complete when your goal is done."
      : "Each turn you see your surroundings and make exactly one tool call. Teammates act in turn after you; talk to them with chat and hand items over with transfer_items. Call complete when your part is done.",
    ...(m.document === "" ? [] : ["Your role document:", m.document]),
  ].join("\n\n");
}

interface Memory {
  /** Whole turns: the observation, the model's answer, and the result of its call once known. */
  turns: ModelMessage[][];
  /** The call of the last turn, answered with the next observation's result. */
  pending: { id: string; name: string } | null;
}

/**
 * A model plays each agent through tool calling: the observation as text in, one of the 13 tools
 * out. Every agent keeps its own memory (its last turns); nothing is shared but what the world
 * carries (chat, transfers). A turn without a usable call waits and counts as a parse error.
 */
export const llmTeam: TeamAgentDefinition = {
  name: "llm",
  description: "a model plays every agent by tool calling (per-agent memory)",
  needsModel: true,
  create: (ctx: TeamContext): TeamAgent => {
    if (ctx.model === null) throw new UserError("team agent llm needs a model: pass --model provider:name");
    const memoryTurns = Number(ctx.options.memory_turns ?? DEFAULT_MEMORY_TURNS);
    if (!Number.isInteger(memoryTurns) || memoryTurns < 1)
      throw new UserError(`option memory_turns=${ctx.options.memory_turns}: expected a whole number ≥ 1`);
    const client = new ModelClient(ctx.model, {
      settings: settingsFromOptions({ ...ctx.options }),
      onRetry: ({ attempt, reason, waitMs }) =>
        ctx.log(`llm team: model call failed (${reason}); retry ${attempt} in ${Math.round(waitMs)} ms`),
    });
    const tools = worldTools();
    const memories = new Map<string, Memory>();
    let turns = 0;
    let parseErrors = 0;
    return {
      usage: () => ({ ...client.totals(), turns, parseErrors }),
      act: async (agentId, obs) => {
        const member = ctx.members.find((m) => m.id === agentId);
        if (member === undefined) throw new UserError(`llm team: no member ${agentId}`);
        const mem = memories.get(agentId) ?? { turns: [], pending: null };
        memories.set(agentId, mem);
        const last = mem.turns.at(-1);
        if (mem.pending !== null && last !== undefined) {
          const r = obs.lastResult;
          const text =
            r === null ? "no result" : r.ok ? r.message : `failed [${r.error.code}]: ${r.error.message}`;
          last.push({
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: mem.pending.id,
                toolName: mem.pending.name,
                output: { type: "text", value: text },
              },
            ],
          });
        }
        mem.pending = null;
        const turn: ModelMessage[] = [{ role: "user", content: renderObservation(obs) }];
        mem.turns.push(turn);
        while (mem.turns.length > memoryTurns) mem.turns.shift();
        turns++;
        const resp = await client.complete({
          system: systemPrompt(member, ctx.members),
          messages: mem.turns.flat(),
          tools,
          signal: ctx.signal,
        });
        // A name outside the world's tools is no call, whatever the SDK made of it.
        const call = resp.toolCalls.find((c) => !c.invalid && Object.hasOwn(tools, c.name));
        if (call === undefined) {
          parseErrors++;
          // The answer is kept as text, so the next turn's prompt shows it made no call.
          turn.push({ role: "assistant", content: resp.text.trim() || "(no tool call)" });
          return WAIT;
        }
        turn.push(...resp.responseMessages);
        // Only the first call is played (one call per turn); the rest get no result and are dropped.
        if (resp.toolCalls.length > 1) {
          turn.splice(1, turn.length - 1, {
            role: "assistant",
            content: [{ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.input }],
          });
        }
        mem.pending = { id: call.id, name: call.name };
        return { tool: call.name, args: call.input };
      },
    };
  },
};
