import type { UsageTotals } from "../../models/usage.js";
import type { Observation } from "../engine/observe.js";
import type { TeamTaskView } from "./task-view.js";

/**
 * One team's decision-maker for a world trial: on each agent's turn it gets that agent's
 * observation and returns one tool call ({ tool, args }). One object plays every agent of the
 * team, so a team agent may share what it likes between its agents (a merged-agent baseline) or
 * keep each agent's view apart (per-agent memory keyed by agent id).
 */
export interface TeamAgent {
  act(agentId: string, obs: Observation, round: number): Promise<unknown>;
  /** Model tokens and cost so far (a team that calls no model has none). */
  usage?(): UsageTotals & { turns: number; parseErrors: number };
}

/** One agent of the team as its decision-maker knows it: role, goal and role document. */
export interface TeamMember {
  id: string;
  role: string;
  goal: string;
  /** The role document the agent starts with ("" when the task gives none). */
  document: string;
}

/** What a team agent is made from: the task's reference calls, a seed, user options and the task view. */
export interface TeamContext {
  /** The task's reference solution: per round, the calls in turn order (empty when it has none). */
  reference: ReadonlyArray<ReadonlyArray<{ agent: string; call: unknown }>>;
  /** Every random choice of the team comes from this seed (recorded in the trial). */
  seed: number;
  options: Readonly<Record<string, string>>;
  members: readonly TeamMember[];
  /** `provider:model` for a team that calls a model; null otherwise. */
  model: string | null;
  signal: AbortSignal;
  log: (line: string) => void;
  /**
   * The task as a planning team may know it (grading predicates, start positions, placed
   * monsters, roles, the world): set by world trials; absent when a team is made elsewhere.
   */
  task?: TeamTaskView;
}

export interface TeamAgentDefinition {
  name: string;
  description: string;
  /** Whether it needs `--model`. */
  needsModel?: boolean;
  create(ctx: TeamContext): TeamAgent;
}
