import type { Observation } from "../engine/observe.js";

/**
 * One team's decision-maker for a world trial: on each agent's turn it gets that agent's
 * observation and returns one tool call ({ tool, args }). One object plays every agent of the
 * team, so a team agent may share what it likes between its agents (a merged-agent baseline) or
 * keep each agent's view apart (per-agent memory keyed by agent id).
 */
export interface TeamAgent {
  act(agentId: string, obs: Observation, round: number): Promise<unknown>;
}

/** What a team agent is made from: the task's reference calls, a seed, and user options. */
export interface TeamContext {
  /** The task's reference solution: per round, the calls in turn order (empty when it has none). */
  reference: ReadonlyArray<ReadonlyArray<{ agent: string; call: unknown }>>;
  /** Every random choice of the team comes from this seed (recorded in the trial). */
  seed: number;
  options: Readonly<Record<string, string>>;
}

export interface TeamAgentDefinition {
  name: string;
  description: string;
  create(ctx: TeamContext): TeamAgent;
}
