import { createWorld, type World } from "../../src/world/build/world.js";
import { type AgentSpec, initialState } from "../../src/world/engine/init.js";
import { step } from "../../src/world/engine/step.js";
import { ROLES, type RoleDef } from "../../src/world/model/roles.js";
import { DEFAULT_RULES, type WorldRules } from "../../src/world/model/rules.js";
import { TOOL_NAMES } from "../../src/world/model/tool-args.js";
import type { StepResult, ToolResult, WorldEvent, WorldState } from "../../src/world/model/types.js";

/** A role that may use every tool, with the given skills and kit (for testing tools one by one). */
export function testRole(id: string, skills: RoleDef["skills"], items: RoleDef["items"] = []): RoleDef {
  return {
    id,
    name: id,
    summary: "test role",
    skills,
    items,
    tools: [...TOOL_NAMES],
    knows: { monsters: true },
  };
}

/** A tiny driver around the pure step function that keeps the latest state and all events. */
export class Harness {
  readonly world: World;
  state: WorldState;
  readonly events: WorldEvent[] = [];

  constructor(agents: AgentSpec[], roles: RoleDef[], seed = 1, rules: Partial<WorldRules> = {}) {
    this.world = createWorld();
    this.state = initialState(this.world, agents, seed, [...ROLES, ...roles], { ...DEFAULT_RULES, ...rules });
  }

  call(agent: string, tool: string, args: Record<string, unknown> = {}): ToolResult {
    const out: StepResult = step(this.world, this.state, agent, { tool, args });
    this.state = out.state;
    this.events.push(...out.events);
    return out.result;
  }

  agent(id: string) {
    const a = this.state.agents.get(this.state.agentIndex[id] ?? -1);
    if (a === undefined) throw new Error(`no agent ${id}`);
    return a;
  }

  count(id: string, item: string): number {
    return this.agent(id).inventory.reduce((n, lot) => {
      const l = this.state.lots.get(lot);
      return n + (l?.item === item ? l.qty : 0);
    }, 0);
  }

  tick(n = 1): void {
    this.state = { ...this.state, tick: this.state.tick + n };
  }
}

/** The error code of a failed result (or "ok"). */
export function codeOf(r: ToolResult): string {
  return r.ok ? "ok" : r.error.code;
}
