import type { World } from "../build/world.js";
import type { AgentState, WorldState } from "../model/types.js";

/** Attack and defence an agent gets from the items it has equipped. */
export function equipmentOf(
  world: World,
  state: WorldState,
  agent: AgentState,
): { attack: number; defence: number } {
  let attack = 0;
  let defence = 0;
  for (const lotId of Object.values(agent.equipment)) {
    const lot = state.lots.get(lotId);
    const item = lot === undefined ? undefined : world.item.get(lot.item);
    attack += item?.stats.attack ?? 0;
    defence += item?.stats.defence ?? 0;
  }
  return { attack, defence };
}
