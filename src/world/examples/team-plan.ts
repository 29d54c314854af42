import type { AgentSpec } from "../engine/init.js";
import { Session } from "../engine/session.js";
import type { ToolCall } from "../tools/schemas.js";
import type { World } from "../world.js";

export const TEAM: AgentSpec[] = [
  { id: "miner", role: "miner" },
  { id: "smith", role: "smith" },
  { id: "warrior", role: "warrior" },
];

const call = (tool: ToolCall["tool"], args: Record<string, unknown> = {}): ToolCall => ({ tool, args });

/**
 * A fixed plan for three roles: the miner gathers copper and tin and hands them to the smith,
 * who smelts bars and forges a sword for the warrior, who equips it. No role could do it alone:
 * only the miner can mine, only the smith can smelt and smith, only the warrior can wield it well.
 */
export const PLAN: Record<string, ToolCall[]> = {
  miner: [
    call("harvest_resource", { target: "copper_rock", count: 2 }),
    call("harvest_resource", { target: "tin_rock", count: 2 }),
    call("transfer_items", { to: "smith", item: "copper_ore", count: 2 }),
    call("transfer_items", { to: "smith", item: "tin_ore", count: 2 }),
    call("chat", { message: "Ores delivered to the smith." }),
  ],
  smith: [
    call("chat", { message: "I will smelt and forge once the ore arrives." }),
    call("wait"),
    call("wait"),
    call("craft_item", { item: "bronze_bar", count: 2, skill: "smelting" }),
    call("craft_item", { item: "bronze_sword", skill: "smithing" }),
    call("transfer_items", { to: "warrior", item: "bronze_sword", count: 1 }),
  ],
  warrior: [
    call("attack_entity", { target: "field_rat" }),
    call("wait"),
    call("chat", { message: "Ready for the sword.", to: "smith" }),
    call("wait"),
    call("wait"),
    call("wait"),
    call("equip_item", { item: "bronze_sword" }),
    call("complete", { summary: "The warrior wields a bronze sword made from the miner's ore." }),
  ],
};

/** Runs the plan round by round; agents with nothing left to do wait. */
export function runScriptedTeam(world: World, seed = 7, roundBudget = 12): Session {
  const session = new Session(world, TEAM, seed, roundBudget);
  session.run((agentId, _obs, round) => PLAN[agentId]?.[round] ?? call("wait"));
  return session;
}
