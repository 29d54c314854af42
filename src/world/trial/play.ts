import { UserError } from "../../core/index.js";
import type { World } from "../build/world.js";
import type { Session } from "../engine/session.js";
import {
  MERGED_AGENT_ID,
  MERGED_ROLE_ID,
  mergedMembers,
  soloRoleSpec,
  verifyWorldRun,
  type WorldTaskSpec,
  type WorldVerdict,
  worldTaskSession,
} from "../task/index.js";
import { getTeamAgent } from "../team/registry.js";
import { teamTaskView } from "../team/task-view.js";
import type { TeamAgent, TeamMember } from "../team/types.js";
import { trialMembers } from "./members.js";
import { type AppliedModifier, modifyObservation, modifySpec } from "./modifiers.js";

/** How a team is set up to play one world task. */
export interface WorldPlayOptions {
  team: string;
  /** The team's own random choices (and the modifiers' draws) come from it. */
  seed: number;
  options?: Readonly<Record<string, string>>;
  modifiers?: readonly AppliedModifier[];
  model?: string | null;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Rewrites what the team is told about its agents, after the modifiers (the solo-role check). */
  members?: (members: TeamMember[]) => TeamMember[];
}

/** A world task ready to play: the task as modified, its session and the team that plays it. */
export interface WorldPlay {
  spec: WorldTaskSpec;
  session: Session;
  team: TeamAgent;
  /** What the team was told of its agents (after the modifiers and `members`). */
  members: TeamMember[];
  /** What an agent sees on its turn (after the modifiers' rewrites). */
  act: (agentId: string, obs: Parameters<TeamAgent["act"]>[1], round: number) => Promise<unknown>;
}

/**
 * Sets up one play of a world task: the modifiers rewrite the task, the session starts from its
 * round-0 state, and the named team agent is made with what it may know (members' goals and role
 * documents, the task view without the reference calls, the reference only for a replaying team).
 */
export function startWorldPlay(task: WorldTaskSpec, base: World, o: WorldPlayOptions): WorldPlay {
  const mods = o.modifiers ?? [];
  const spec = modifySpec(task, mods, { seed: o.seed, world: base });
  const session = worldTaskSession(spec, base);
  session.modifiers = mods.map((m) => m.label);
  const told = trialMembers(spec, base, mods);
  const members = o.members === undefined ? told : o.members(told);
  const team = getTeamAgent(o.team).create({
    reference: spec.reference ?? [],
    seed: o.seed,
    options: o.options ?? {},
    members,
    model: o.model ?? null,
    signal: o.signal ?? new AbortController().signal,
    log: o.log ?? (() => undefined),
    task: teamTaskView(spec, session.world, session.state, session.roles),
  });
  const act: WorldPlay["act"] = (id, obs, round) =>
    team.act(id, modifyObservation(obs, mods, { world: session.world, state: session.state }), round);
  return { spec, session, team, members, act };
}

/** A finished play: the verdict and the rounds it took. */
export interface WorldPlayResult {
  spec: WorldTaskSpec;
  verdict: WorldVerdict;
  rounds: number;
}

/** Plays a world task to the end in process (no trial folder, no store): `world check` uses it. */
export async function playWorldTask(
  task: WorldTaskSpec,
  base: World,
  o: WorldPlayOptions,
): Promise<WorldPlayResult> {
  const play = startWorldPlay(task, base, o);
  await play.session.runAsync(play.act);
  const { spec, session } = play;
  return {
    spec,
    verdict: verifyWorldRun(spec, session.world, session.state, session.events),
    rounds: session.roundsPlayed,
  };
}

/**
 * The task tried by one agent with only `role`'s abilities (the merged baseline cut to one role):
 * it is told every goal of the team, and only that role's documents.
 */
export async function playSoloRole(
  task: WorldTaskSpec,
  base: World,
  role: string,
  o: WorldPlayOptions,
): Promise<WorldPlayResult> {
  const spec = soloRoleSpec(task, role);
  const own = mergedMembers(spec);
  if (own.length === 0) throw new UserError(`task ${task.id} has no member of role ${role}`);
  const ids = new Set(own.map((m) => m.id));
  return playWorldTask(spec, base, {
    ...o,
    members: (members) => [
      {
        id: MERGED_AGENT_ID,
        role: MERGED_ROLE_ID,
        goal: members.map((m) => `As ${m.id} (${m.role}): ${m.goal}`).join("\n"),
        document: members
          .filter((m) => ids.has(m.id) && m.document !== "")
          .map((m) => `## As ${m.id} (${m.role})\n\n${m.document}`)
          .join("\n\n"),
      },
    ],
  });
}
