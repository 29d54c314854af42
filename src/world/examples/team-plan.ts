import type { World } from "../build/world.js";
import type { AgentSpec } from "../engine/init.js";
import type { Observation } from "../engine/observe.js";
import { Session } from "../engine/session.js";
import type { ToolCall } from "../model/tool-args.js";

export const TEAM: AgentSpec[] = [
  { id: "miner", role: "miner" },
  { id: "smith", role: "smith" },
  { id: "warrior", role: "warrior" },
];

const call = (tool: ToolCall["tool"], args: Record<string, unknown> = {}): ToolCall => ({ tool, args });

/**
 * One step of an agent's plan. Each turn the agent works on its first unfinished step:
 * `go` walks (in bounded moves) until it stands on the tile; `gather` harvests one point until it
 * carries enough (waiting while the point is depleted); `until` waits until the observation
 * shows what it needs; `call` is a single call.
 */
export type PlanStep =
  | { go: [number, number] }
  | { gather: string; item: string; qty: number }
  | { until: (o: Observation) => boolean }
  | { call: ToolCall };

const has = (o: Observation, item: string, qty = 1): boolean =>
  (o.inventory.find((s) => s.item === item)?.qty ?? 0) >= qty;
const sees = (o: Observation, id: string): boolean => o.nearby.some((t) => t.id === id);

// Places near the default world's spawn point (seed 20260925): copper and tin rocks, a field rat,
// and the town square by the furnace and anvil where the smith works.
const COPPER = { node: "node_829", at: [486, 362] as [number, number] };
const TIN = { node: "node_810", at: [506, 422] as [number, number] };
const RAT = { mob: "mob_263", near: [578, 368] as [number, number] };
const SQUARE: [number, number] = [520, 383];

/**
 * A plan for three roles: the miner gathers copper and tin and brings them to the smith, who
 * smelts bars and forges a sword for the warrior, who equips it. No role could do it alone: only
 * the miner can mine, only the smith can smelt and smith, and the smith has no attack skill to
 * wield what it forges (a skill a role lacks is level 0).
 * Everyone walks in bounded moves and sees only its surroundings; each declares its own part done.
 */
export const PLAN: Record<string, PlanStep[]> = {
  miner: [
    { go: COPPER.at },
    { gather: COPPER.node, item: "copper_ore", qty: 2 },
    { go: TIN.at },
    { gather: TIN.node, item: "tin_ore", qty: 2 },
    { go: SQUARE },
    { until: (o) => sees(o, "smith") },
    { call: call("transfer_items", { to: "smith", item: "copper_ore", count: 2 }) },
    { call: call("transfer_items", { to: "smith", item: "tin_ore", count: 2 }) },
    { call: call("chat", { message: "Ores delivered to the smith." }) },
    { call: call("complete", { summary: "Mined and delivered two copper and two tin ore." }) },
  ],
  smith: [
    { call: call("chat", { message: "I will smelt and forge once the ore arrives." }) },
    { until: (o) => has(o, "copper_ore", 2) && has(o, "tin_ore", 2) },
    { call: call("craft_item", { item: "bronze_bar", count: 2, skill: "smelting" }) },
    { call: call("craft_item", { item: "bronze_sword", skill: "smithing" }) },
    { until: (o) => sees(o, "warrior") },
    { call: call("transfer_items", { to: "warrior", item: "bronze_sword", count: 1 }) },
    { call: call("complete", { summary: "Forged a bronze sword for the warrior." }) },
  ],
  warrior: [
    { go: RAT.near },
    { call: call("attack_entity", { target: RAT.mob }) },
    { go: SQUARE },
    { call: call("chat", { message: "Ready for the sword.", to: "smith" }) },
    { until: (o) => has(o, "bronze_sword") },
    { call: call("equip_item", { item: "bronze_sword" }) },
    { call: call("complete", { summary: "The warrior wields a bronze sword made from the miner's ore." }) },
  ],
};

/** The next call of an agent following `steps`; `progress` holds how far each agent has got. */
export function nextCall(steps: readonly PlanStep[], progress: { at: number }, o: Observation): ToolCall {
  for (;;) {
    const s = steps[progress.at];
    if (s === undefined) return call("wait");
    if ("call" in s) {
      progress.at++;
      return s.call;
    }
    if ("go" in s) {
      if (o.position.x !== s.go[0] || o.position.y !== s.go[1])
        return call("move_to", { x: s.go[0], y: s.go[1] });
    } else if ("gather" in s) {
      if (!has(o, s.item, s.qty)) {
        const depleted = o.nearby.some((t) => t.id === s.gather && t.detail.includes("depleted"));
        return depleted ? call("wait") : call("harvest_resource", { target: s.gather });
      }
    } else if (!s.until(o)) return call("wait");
    progress.at++;
  }
}

/** Runs the plan with the engine's turn order until everyone is done (or the budget runs out). */
export function runScriptedTeam(world: World, seed = 7, roundBudget = 40): Session {
  const session = new Session(world, TEAM, seed, roundBudget);
  const progress = new Map(TEAM.map((a) => [a.id, { at: 0 }]));
  session.run((agentId, obs) => nextCall(PLAN[agentId] ?? [], progress.get(agentId) ?? { at: 0 }, obs));
  return session;
}
