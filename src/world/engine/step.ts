import type { World } from "../build/world.js";
import type { JsonValue, StepResult, ToolErrorCode, ToolResult, WorldState } from "../model/types.js";
import { Draft, ToolFailure } from "../state/draft.js";
import { getWorldTool, type WorldTool } from "../tools/registry.js";
import { unknownAgent } from "./init.js";

/**
 * The pure step function: one agent's tool call applied to a state. The input state is never
 * modified; randomness comes only from the RNG state carried in the world state. A failed tool
 * leaves the world as it was (apart from the agent's inbox being read and its last result).
 */
export function step(world: World, state: WorldState, agentId: string, call: unknown): StepResult {
  const idx = state.agentIndex[agentId];
  const agent = idx === undefined ? undefined : state.agents.get(idx);
  if (agent === undefined) throw unknownAgent(state, agentId);
  // Messages so far were shown in the observation that led to this call.
  const base: WorldState = {
    ...state,
    agents: state.agents.set(idx ?? 0, { ...agent, readUpTo: state.messages.length }),
  };
  const actionSeq = state.seq;
  const fresh = (): Draft => {
    const draft = new Draft(world, base, agentId);
    draft.actionSeq = draft.reserve();
    return draft;
  };
  const parsed = parseCall(call);
  const toolName = parsed.success
    ? parsed.data.tool.name
    : typeof call === "object" && call !== null && "tool" in call
      ? String(call.tool)
      : "?";
  let result: ToolResult;
  let committed: Draft | null = null;
  if (!parsed.success) {
    result = fail(
      toolName,
      "invalid_args",
      parsed.error.issues.map((i) => `${i.path.join(".") || "call"}: ${i.message}`).join("; "),
    );
  } else if (agent.completed !== null) {
    result = fail(toolName, "task_complete", `you declared completion at tick ${agent.completed.tick}`);
  } else if (agent.downUntil > state.tick) {
    result = fail(toolName, "defeated", `you were defeated and sit out until tick ${agent.downUntil}`);
  } else if (!agent.allowedTools.includes(parsed.data.tool.name)) {
    result = fail(
      toolName,
      "tool_not_allowed",
      `your role (${agent.role}) cannot use ${parsed.data.tool.name}`,
    );
  } else {
    const args = parsed.data.tool.args.safeParse(parsed.data.args ?? {});
    if (!args.success) {
      result = fail(
        toolName,
        "invalid_args",
        args.error.issues.map((i) => `${i.path.join(".") || "args"}: ${i.message}`).join("; "),
      );
    } else {
      const work = fresh();
      try {
        const out = parsed.data.tool.handler(work, args.data as never);
        const message = typeof out === "string" ? out : out.message;
        result =
          typeof out !== "string" && out.defeated
            ? fail(toolName, "defeated", message)
            : { ok: true, tool: toolName, message };
        committed = work;
      } catch (e) {
        if (!(e instanceof ToolFailure)) throw e;
        result = fail(toolName, e.code, e.message);
      }
    }
  }
  // A failed call keeps none of its effects: start again from the base state.
  committed ??= fresh();
  const actor = committed.agent(agentId);
  committed.putAgent({ ...actor, lastResult: result });
  const args = parsed.success ? toJson(parsed.data.args) : null;
  const error = result.ok ? null : { code: result.error.code, message: result.error.message };
  committed.emit("action", { tool: toolName, args, ok: result.ok, error }, actionSeq);
  const { state: next, events } = committed.finish();
  return { state: next, events, result };
}

/**
 * The outer shape of a call, checked by hand because it runs on every step (the arguments are
 * then parsed with the tool's zod schema). Same rules as `toolCallSchema`, with the tool looked up
 * in the world tool registry.
 */
function parseCall(
  call: unknown,
):
  | { success: true; data: { tool: WorldTool; args: unknown } }
  | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } {
  const bad = (
    message: string,
  ): { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } => ({
    success: false,
    error: { issues: [{ path: [], message }] },
  });
  if (typeof call !== "object" || call === null || Array.isArray(call))
    return bad("a call is an object { tool, args }");
  const keys = Object.keys(call);
  const extra = keys.find((k) => k !== "tool" && k !== "args");
  if (extra !== undefined) return bad(`unknown key "${extra}"`);
  const name = (call as { tool?: unknown }).tool;
  const tool = typeof name === "string" ? getWorldTool(name) : undefined;
  if (tool === undefined) return bad(`unknown tool ${JSON.stringify(name)}`);
  return { success: true, data: { tool, args: (call as { args?: unknown }).args } };
}

function fail(tool: string, code: ToolErrorCode, message: string): ToolResult {
  return { ok: false, tool, error: { code, message } };
}

/** Copies call arguments into plain JSON data (anything else becomes its string form). */
function toJson(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === "object") {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toJson(x);
    return out;
  }
  return String(v);
}
