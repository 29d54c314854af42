import { z } from "zod";
import { ROLES, type RoleDef, roleSchema } from "../roles.js";
import type { World } from "../world.js";
import { type AgentSpec, advanceTick, initialState } from "./init.js";
import { type Observation, observe } from "./observe.js";
import { stateDigest } from "./snapshot.js";
import { step } from "./step.js";
import type { ToolResult, WorldEvent, WorldState } from "./types.js";

export type Policy = (agentId: string, obs: Observation, round: number) => unknown;
export type AsyncPolicy = (agentId: string, obs: Observation, round: number) => Promise<unknown>;

export const runFileSchema = z.object({
  format: z.literal("longhaul-world-run"),
  version: z.literal(1),
  seed: z.number().int(),
  worldSeed: z.number().int(),
  contentDigest: z.string(),
  agents: z.array(z.object({ id: z.string(), role: z.string(), team: z.string().optional() })),
  /** The role definitions the agents used (so runs with custom roles replay anywhere). */
  roles: z.array(roleSchema).optional(),
  roundBudget: z.number().int().min(1),
  rounds: z.number().int().min(0),
  calls: z.array(z.object({ round: z.number().int(), agent: z.string(), call: z.unknown() })),
  events: z.array(
    z.object({
      seq: z.number().int(),
      tick: z.number().int(),
      agent: z.string().nullable(),
      type: z.string(),
      action: z.number().int().nullable(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
  completed: z.object({ agent: z.string(), tick: z.number().int(), summary: z.string() }).nullable(),
  finalDigest: z.string(),
});
export type RunFile = z.infer<typeof runFileSchema>;

/**
 * Round-robin turns: in a fixed order each agent observes, makes exactly one tool call and the
 * world advances; after every agent has acted the clock ticks. Runs stop at the round budget or
 * when an agent declares the task complete. Everything needed to replay is recorded.
 */
export class Session {
  state: WorldState;
  readonly events: WorldEvent[] = [];
  readonly calls: Array<{ round: number; agent: string; call: unknown }> = [];
  round = 0;

  constructor(
    readonly world: World,
    readonly agents: readonly AgentSpec[],
    readonly seed: number,
    readonly roundBudget: number,
    readonly roles: readonly RoleDef[] = ROLES,
  ) {
    this.state = initialState(world, agents, seed, roles);
  }

  get done(): boolean {
    return this.state.completed !== null || this.round >= this.roundBudget;
  }

  observe(agentId: string): Observation {
    return observe(this.world, this.state, agentId);
  }

  act(agentId: string, call: unknown): ToolResult {
    const out = step(this.world, this.state, agentId, call);
    this.state = out.state;
    this.events.push(...out.events);
    this.calls.push({ round: this.round, agent: agentId, call });
    return out.result;
  }

  endRound(): void {
    this.state = advanceTick(this.state);
    this.round++;
  }

  runRound(policy: Policy): void {
    for (const a of this.agents) {
      if (this.state.completed !== null) break;
      this.act(a.id, policy(a.id, this.observe(a.id), this.round));
    }
    this.endRound();
  }

  run(policy: Policy): void {
    while (!this.done) this.runRound(policy);
  }

  async runAsync(policy: AsyncPolicy): Promise<void> {
    while (!this.done) {
      for (const a of this.agents) {
        if (this.state.completed !== null) break;
        this.act(a.id, await policy(a.id, this.observe(a.id), this.round));
      }
      this.endRound();
    }
  }

  toRunFile(worldSeed: number): RunFile {
    return {
      format: "longhaul-world-run",
      version: 1,
      seed: this.seed,
      worldSeed,
      contentDigest: this.world.contentDigest,
      agents: this.agents.map((a) => ({
        id: a.id,
        role: a.role,
        ...(a.team === undefined ? {} : { team: a.team }),
      })),
      roles: this.roles.filter((r) => this.agents.some((a) => a.role === r.id)),
      roundBudget: this.roundBudget,
      rounds: this.round,
      calls: this.calls,
      events: this.events,
      completed: this.state.completed,
      finalDigest: stateDigest(this.state),
    };
  }
}

/** Re-runs the recorded calls from the recorded seed (with the roles the run used); returns the session. */
export function replay(world: World, run: RunFile, roles: readonly RoleDef[] = run.roles ?? ROLES): Session {
  const s = new Session(world, run.agents, run.seed, run.roundBudget, roles);
  for (const c of run.calls) {
    while (s.round < c.round) s.endRound();
    s.act(c.agent, c.call);
  }
  while (s.round < run.rounds) s.endRound();
  return s;
}
