import type { z } from "zod";
import { UserError } from "../../core/index.js";
import type { Draft } from "../state/draft.js";
import { BUILTIN_WORLD_TOOLS } from "./builtin.js";

/**
 * What a handler returns: a message for the agent, or a message with `defeated` when the call
 * ended with the agent defeated (reported as a failure, but the effects stand). A handler fails
 * by throwing `ToolFailure`, which `step` turns into a typed `ToolResult`.
 */
export type ToolOutcome = string | { message: string; defeated: boolean };

/** A world tool as it is written: its args schema's output is what its handler receives. */
export interface WorldToolDefinition<A> {
  readonly name: string;
  /** What a model sees about the tool. */
  readonly description: string;
  /** Parsed by `step` before the handler runs; a parse failure is an `invalid_args` result. */
  readonly args: z.ZodType<A>;
  readonly handler: (d: Draft, args: A) => ToolOutcome;
}

/** A world tool as the registry holds it (handlers take only what their own schema produced). */
export interface WorldTool {
  readonly name: string;
  readonly description: string;
  readonly args: z.ZodType;
  readonly handler: (d: Draft, args: never) => ToolOutcome;
}

const tools = new Map<string, WorldTool>();

/** Adds a world tool by name (a second, different one of the same name is an error). */
export function registerWorldTool<A>(def: WorldToolDefinition<A>): void {
  add(def);
}

function add(def: WorldTool): void {
  if (!/^[a-z][a-z0-9_]*$/.test(def.name))
    throw new UserError(`world tool name "${def.name}": use lowercase letters, digits and _`);
  const had = tools.get(def.name);
  if (had !== undefined && had !== def) throw new UserError(`world tool "${def.name}" is already registered`);
  tools.set(def.name, def);
}

/** A world tool by name, or undefined (`step` reports an unknown tool as `invalid_args`). */
export function getWorldTool(name: string): WorldTool | undefined {
  return tools.get(name);
}

export function listWorldTools(): WorldTool[] {
  return [...tools.values()];
}

for (const def of BUILTIN_WORLD_TOOLS) add(def);
