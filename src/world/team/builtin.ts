import { Rng } from "../../core/index.js";
import type { Observation } from "../engine/observe.js";
import type { TeamAgentDefinition } from "./types.js";

const WAIT = { tool: "wait", args: {} } as const;

/**
 * The task's reference solution, replayed: round r's calls in turn order. An agent with no call
 * left in a round waits. It is the oracle of world tasks (`--agent oracle`).
 */
export const referenceTeam: TeamAgentDefinition = {
  name: "oracle",
  description: "replays the task's reference calls (a world task's oracle)",
  create: (ctx) => ({
    act: async (agentId, _obs, round) => {
      const calls = ctx.reference[round] ?? [];
      const mine = calls.find((c) => c.agent === agentId);
      return mine?.call ?? WAIT;
    },
  }),
};

/** Every agent waits every turn: the world task's nop (nothing may already be reached). */
export const idleTeam: TeamAgentDefinition = {
  name: "nop",
  description: "every agent waits (a world task's nop)",
  create: () => ({ act: async () => WAIT }),
};

/**
 * Seeded random legal actions: each turn one of what the observation makes possible — walk to a
 * nearby tile, harvest or attack something in view, pick up an item in view, hand an item to a
 * teammate in view, equip or use an item held, chat, or wait. The baseline floor of a task set.
 */
export const randomTeam: TeamAgentDefinition = {
  name: "random",
  description: "seeded random legal actions (a baseline floor)",
  create: (ctx) => {
    const rng = new Rng(ctx.seed);
    return { act: async (_agentId, obs) => randomCall(obs, rng) };
  },
};

export function randomCall(obs: Observation, rng: Rng): unknown {
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(rng.next() * xs.length)];
  const options: Array<() => unknown> = [
    () => ({
      tool: "move_to",
      args: {
        x: obs.position.x + Math.floor(rng.next() * 11) - 5,
        y: obs.position.y + Math.floor(rng.next() * 11) - 5,
      },
    }),
    () => ({ tool: "chat", args: { message: `at ${obs.position.x},${obs.position.y}` } }),
    () => WAIT,
  ];
  const of = (kind: string) => obs.nearby.filter((t) => t.kind === kind);
  const resource = pick(of("resource"));
  if (resource) options.push(() => ({ tool: "harvest_resource", args: { target: resource.id } }));
  const mob = pick(of("mob"));
  if (mob) options.push(() => ({ tool: "attack_entity", args: { target: mob.id } }));
  const ground = pick(of("ground_item"));
  if (ground) options.push(() => ({ tool: "pickup_item", args: { target: ground.id } }));
  const held = pick(obs.inventory);
  const mate = pick(of("agent"));
  if (held && mate)
    options.push(() => ({ tool: "transfer_items", args: { to: mate.id, item: held.item, count: 1 } }));
  if (held) options.push(() => ({ tool: "equip_item", args: { item: held.item } }));
  return pick(options)?.() ?? WAIT;
}
