import { z } from "zod";
import { UserError } from "../../core/index.js";
import type { World } from "../build/world.js";
import { ROLES, type RoleDef, roleSchema } from "../model/roles.js";
import { DEFAULT_RULES, rulesSchema, type WorldRules } from "../model/rules.js";
import type { ToolResult, WorldEvent, WorldState } from "../model/types.js";
import { endRound, isActive } from "../state/round.js";
import { type AgentSpec, initialState, unknownAgent } from "./init.js";
import { type Observation, observe } from "./observe.js";
import { stateDigest } from "./snapshot.js";
import { step } from "./step.js";

export type Policy = (agentId: string, obs: Observation, round: number) => unknown;
export type AsyncPolicy = (agentId: string, obs: Observation, round: number) => Promise<unknown>;

/** The run file format's version; version 1 files predate turn order, mob turns and rules. */
export const RUN_FILE_VERSION = 2;

/**
 * A run that started from a world task's round-0 state rather than the plain initial state: the
 * task spec inline (as parsed, defaults filled) and its digest. The engine keeps it opaque; the
 * task layer rebuilds the round-0 state from it to replay the run.
 */
export const runTaskSchema = z.object({
  id: z.string(),
  digest: z.string(),
  spec: z.record(z.string(), z.unknown()),
});
export type RunTask = z.infer<typeof runTaskSchema>;

export const runFileSchema = z.object({
  format: z.literal("longhaul-world-run"),
  version: z.literal(RUN_FILE_VERSION),
  seed: z.number().int(),
  worldSeed: z.number().int(),
  contentDigest: z.string(),
  rules: rulesSchema,
  agents: z.array(
    z.object({
      id: z.string(),
      role: z.string(),
      team: z.string().optional(),
      at: z.object({ x: z.number().int(), y: z.number().int() }).optional(),
    }),
  ),
  /** The role definitions the agents used (so runs with custom roles replay anywhere). */
  roles: z.array(roleSchema).optional(),
  /** Set when the run played a world task (its setup is not the plain initial state). */
  task: runTaskSchema.optional(),
  /** The modifiers the run played under (`no-comm`, `round-budget=N`, …); their effects are in `task` and `rules`. */
  modifiers: z.array(z.string()).optional(),
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
  /** Agents that declared completion, in the order they did. */
  completed: z.array(z.object({ agent: z.string(), tick: z.number().int(), summary: z.string() })),
  finalDigest: z.string(),
});
export type RunFile = z.infer<typeof runFileSchema>;

/** A call made out of turn (or after the run ended): refused, and the world is left as it was. */
export class TurnError extends UserError {}

/**
 * Round-robin turns: in the fixed order of `agents`, each active agent observes and makes
 * exactly one tool call. Agents that declared completion, or are sitting out a defeat, are
 * skipped (their places in the order stay). After the last turn of a round the round ends (mobs
 * act, agents regenerate, the clock ticks). The run ends at the round budget or when every agent
 * has declared completion. Everything needed to replay is recorded.
 */
export class Session {
  state: WorldState;
  readonly events: WorldEvent[] = [];
  readonly calls: Array<{ round: number; agent: string; call: unknown }> = [];
  round = 0;
  /** The world task the run plays, if any: recorded in the run file so a replay can set it up. */
  task: RunTask | undefined = undefined;
  /** The modifiers applied to the run (recorded only; their effects are already in the task and rules). */
  modifiers: readonly string[] = [];
  /** Index into `agents` of the agent whose turn it is. */
  private cursor = 0;

  constructor(
    readonly world: World,
    readonly agents: readonly AgentSpec[],
    readonly seed: number,
    readonly roundBudget: number,
    readonly roles: readonly RoleDef[] = ROLES,
    readonly rules: WorldRules = DEFAULT_RULES,
  ) {
    this.state = initialState(world, agents, seed, roles, rules);
    this.settle();
  }

  get done(): boolean {
    return (
      this.round >= this.roundBudget || this.agents.every((a) => this.agentState(a.id).completed !== null)
    );
  }

  /**
   * Rounds played: the ended rounds plus the current one if a call was made in it. A run where
   * every agent completed mid-round stops without ending that round (`round` is not advanced),
   * yet it was played, so it counts: this is the count the run file, results and reports give.
   * (The cursor cannot tell: it also moves past agents skipped at the start of a round.)
   */
  get roundsPlayed(): number {
    return this.round + (this.calls.at(-1)?.round === this.round ? 1 : 0);
  }

  /** The agent whose turn it is, or null once the run is over. */
  get turn(): string | null {
    return this.done ? null : (this.agents[this.cursor]?.id ?? null);
  }

  observe(agentId: string): Observation {
    return observe(this.world, this.state, agentId);
  }

  /**
   * The agent whose turn it is makes its call. A call by any other agent (or after the run is
   * over) throws a TurnError and changes nothing; an unknown agent id is a UserError.
   */
  act(agentId: string, call: unknown): ToolResult {
    if (this.state.agentIndex[agentId] === undefined) throw unknownAgent(this.state, agentId);
    const turn = this.turn;
    if (turn === null) throw new TurnError(`the run is over (round ${this.round}); ${agentId} cannot act`);
    if (agentId !== turn)
      throw new TurnError(`it is ${turn}'s turn in round ${this.round}, not ${agentId}'s`);
    const out = step(this.world, this.state, agentId, call);
    this.state = out.state;
    this.events.push(...out.events);
    this.calls.push({ round: this.round, agent: agentId, call });
    this.cursor++;
    this.settle();
    return out.result;
  }

  /** Skips inactive agents and ends finished rounds until an active agent is up or the run is over. */
  private settle(): void {
    while (!this.done) {
      const spec = this.agents[this.cursor];
      if (spec === undefined) {
        const out = endRound(this.world, this.state);
        this.state = out.state;
        this.events.push(...out.events);
        this.round++;
        this.cursor = 0;
      } else if (isActive(this.agentState(spec.id), this.state.tick)) return;
      else this.cursor++;
    }
  }

  private agentState(id: string) {
    const a = this.state.agents.get(this.state.agentIndex[id] ?? -1);
    if (a === undefined) throw unknownAgent(this.state, id);
    return a;
  }

  /** Plays turns until the current round is over (or the run is). */
  runRound(policy: Policy): void {
    const round = this.round;
    for (let id = this.turn; id !== null && this.round === round; id = this.turn)
      this.act(id, policy(id, this.observe(id), this.round));
  }

  run(policy: Policy): void {
    while (!this.done) this.runRound(policy);
  }

  async runAsync(policy: AsyncPolicy): Promise<void> {
    for (let id = this.turn; id !== null; id = this.turn)
      this.act(id, await policy(id, this.observe(id), this.round));
  }

  toRunFile(worldSeed: number): RunFile {
    const completed = this.agents
      .map((a) => ({ agent: a.id, done: this.agentState(a.id).completed }))
      .flatMap((c) => (c.done === null ? [] : [{ agent: c.agent, ...c.done }]))
      .sort((a, b) => a.tick - b.tick);
    return {
      format: "longhaul-world-run",
      version: RUN_FILE_VERSION,
      seed: this.seed,
      worldSeed,
      contentDigest: this.world.contentDigest,
      rules: { ...this.rules },
      agents: this.agents.map((a) => ({
        id: a.id,
        role: a.role,
        ...(a.team === undefined ? {} : { team: a.team }),
        ...(a.at === undefined ? {} : { at: { x: a.at.x, y: a.at.y } }),
      })),
      roles: this.roles.filter((r) => this.agents.some((a) => a.role === r.id)),
      ...(this.task === undefined ? {} : { task: this.task }),
      ...(this.modifiers.length === 0 ? {} : { modifiers: [...this.modifiers] }),
      roundBudget: this.roundBudget,
      rounds: this.roundsPlayed,
      calls: this.calls,
      events: this.events,
      completed,
      finalDigest: stateDigest(this.state),
    };
  }
}
