import { Rng, UserError } from "../../core/index.js";
import type { World } from "../build/world.js";
import { teamView } from "../engine/team-view.js";
import { MERGED_AGENT_ID, MERGED_ROLE_ID } from "../task/merge.js";
import type { WorldTaskSpec } from "../task/schema.js";
import { WORLD_MODIFIERS_OPTION, type WorldModifierDefinition } from "./modifier-types.js";

/** How far (Chebyshev tiles) from its task spawn `random-spawn` may put an agent. */
export const RANDOM_SPAWN_RADIUS = 24;

/** The role name and document every agent gets under `no-roles`. */
export const NEUTRAL_ROLE = "member";
export const NEUTRAL_DOCUMENT = [
  "# Team member",
  "",
  "You are one member of a team. Your skills, items and equipment are in your observation;",
  "what you cannot do, a tool error will tell you. Work with your teammates toward your goal.",
].join("\n");

function wholeNumber(name: string, min: number, max: number): (text: string) => number {
  return (text) => {
    const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new UserError(`${name}=${text}: expected a whole number from ${min} to ${max}`);
    return n;
  };
}

const noComm: WorldModifierDefinition = {
  name: "no-comm",
  description: "no chat and no transfer_items (refused with a tool error); teammates are not seen",
  // An engine rule (rules.noComm), so the step function refuses the calls and a replay does too.
  spec: (spec) => ({ ...spec, params: { ...spec.params, no_comm: true } }),
};

const sharedPlan: WorldModifierDefinition = {
  name: "shared-plan",
  description: "chat only in round 0 (the shared plan), refused afterwards; transfer_items stays allowed",
  // An engine rule (rules.sharedPlan) like no-comm, so a replay refuses the same chats.
  spec: (spec) => ({ ...spec, params: { ...spec.params, shared_plan: true } }),
};

const oracleComm: WorldModifierDefinition = {
  name: "oracle-comm",
  description:
    "every observation also carries what the teammates observe (positions, HP, inventories, equipment) and the team's latest chat",
  // Observation only: the engine is untouched, so the run replays as any other.
  observation: (obs, view) =>
    view === undefined ? obs : { ...obs, teamView: teamView(view.world, view.state, obs.agent) },
};

/** Team agents that cannot play a merged team: they replay calls made for the separate agents. */
const REFERENCE_TEAMS = ["oracle"];

const merged: WorldModifierDefinition = {
  name: "merged",
  description: `the team plays as one agent ("${MERGED_AGENT_ID}"): the best level of every skill, all items and tools, all goals and documents`,
  // A task param, so setting up the run (and a replay of it) builds the one agent; predicates
  // naming a member look at the merged agent.
  spec: (spec) => ({ ...spec, params: { ...spec.params, merged: true } }),
  members: (members) => [
    {
      id: MERGED_AGENT_ID,
      role: MERGED_ROLE_ID,
      goal: members.map((m) => `As ${m.id} (${m.role}): ${m.goal}`).join("\n"),
      document: members
        .filter((m) => m.document !== "")
        .map((m) => `## As ${m.id} (${m.role})\n\n${m.document}`)
        .join("\n\n"),
    },
  ],
  checkTeam: (team) => {
    if (REFERENCE_TEAMS.includes(team))
      throw new UserError(
        `option ${WORLD_MODIFIERS_OPTION}: team ${team} cannot play under the merged modifier (its reference calls are for the separate agents); use scripted, random, nop or llm`,
      );
  },
};

const noDocs: WorldModifierDefinition = {
  name: "no-docs",
  description: "the agents get no role document (an empty one)",
  members: (members) => members.map((m) => ({ ...m, document: "" })),
};

const roundBudget: WorldModifierDefinition = {
  name: "round-budget",
  description: "the run ends after N rounds (max_rounds = N)",
  parseValue: wholeNumber("round-budget", 1, 10_000),
  // The reference is cut to the budget too: a task's reference may not be longer than its budget.
  spec: (spec, value) => {
    const n = value ?? spec.max_rounds;
    return {
      ...spec,
      max_rounds: n,
      ...(spec.reference === undefined ? {} : { reference: spec.reference.slice(0, n) }),
    };
  },
};

const randomSpawn: WorldModifierDefinition = {
  name: "random-spawn",
  description: `each agent starts on a walkable tile drawn from the trial seed, within ${RANDOM_SPAWN_RADIUS} tiles of its task spawn and reachable from it`,
  spec: (spec, _value, ctx) => randomSpawns(spec, ctx.world, ctx.seed),
};

const noRoles: WorldModifierDefinition = {
  name: "no-roles",
  description: `every agent is told the same neutral role ("${NEUTRAL_ROLE}") and document; skills, tools and items stay`,
  // An empty document (no-docs) stays empty.
  members: (members) =>
    members.map((m) => ({ ...m, role: NEUTRAL_ROLE, document: m.document === "" ? "" : NEUTRAL_DOCUMENT })),
  observation: (obs) => ({
    ...obs,
    role: NEUTRAL_ROLE,
    nearby: obs.nearby.map((t) => (t.kind === "agent" ? { ...t, detail: NEUTRAL_ROLE } : t)),
    // A refused tool would otherwise name the real role ("your role (smith) cannot use …").
    lastResult:
      obs.lastResult === null || obs.lastResult.ok
        ? obs.lastResult
        : {
            ...obs.lastResult,
            error: {
              ...obs.lastResult.error,
              message: obs.lastResult.error.message.replace(/your role \([^)]*\)/, "you"),
            },
          },
  }),
};

export const BUILTIN_WORLD_MODIFIERS: readonly WorldModifierDefinition[] = [
  noComm,
  noDocs,
  roundBudget,
  randomSpawn,
  noRoles,
  sharedPlan,
  oracleComm,
  merged,
];

/**
 * New spawn points drawn from the seed: for each agent in team order, a tile within
 * RANDOM_SPAWN_RADIUS of its task spawn (the world spawn when the task names none) that is
 * walkable and in the same walk region, so the agent can still reach everything it could.
 */
export function randomSpawns(spec: WorldTaskSpec, world: World, seed: number): WorldTaskSpec {
  const rng = new Rng(`random-spawn:${seed}`);
  const { map } = world;
  const team = spec.team.map((m) => {
    const from = m.spawn ?? world.pack.world.spawn;
    const region = map.comp[from.y * map.width + from.x] ?? -1;
    for (let tries = 0; tries < 1000; tries++) {
      const x = from.x + rng.int(-RANDOM_SPAWN_RADIUS, RANDOM_SPAWN_RADIUS);
      const y = from.y + rng.int(-RANDOM_SPAWN_RADIUS, RANDOM_SPAWN_RADIUS);
      if (x < 0 || y < 0 || x >= map.width || y >= map.height) continue;
      const c = map.comp[y * map.width + x] ?? -1;
      if (c >= 0 && (region < 0 || c === region)) return { ...m, spawn: { x, y } };
    }
    return m;
  });
  return { ...spec, team };
}
