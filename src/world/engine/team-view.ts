import type { World } from "../build/world.js";
import type { Slot } from "../model/schema.js";
import type { Message, WorldState } from "../model/types.js";
import { unknownAgent } from "./init.js";
import { observe } from "./observe.js";

/** How many of the team's latest chat lines a team view carries. */
export const TEAM_VIEW_CHAT_LINES = 10;

/** One teammate as a coordinator sees it, wherever it is. */
export interface TeammateView {
  id: string;
  role: string;
  position: { x: number; y: number; biome: string };
  hp: { current: number; max: number };
  inventory: Array<{ item: string; qty: number }>;
  equipment: Partial<Record<Slot, string>>;
  /** Declared completion, or sitting out a defeat (until the tick given). */
  status: "active" | "completed" | `down until tick ${number}`;
}

/**
 * What the whole team observes (the oracle-comm baseline: one coordinator sees everything):
 * every teammate's position, HP, inventory and equipment, and the team's latest chat lines,
 * whoever they were addressed to.
 */
export interface TeamView {
  teammates: TeammateView[];
  chat: Message[];
}

export function teamView(world: World, state: WorldState, agentId: string): TeamView {
  const me = state.agents.get(state.agentIndex[agentId] ?? -1);
  if (me === undefined) throw unknownAgent(state, agentId);
  const teammates: TeammateView[] = [];
  state.agents.forEach((a) => {
    if (a.id === me.id || a.team !== me.team) return;
    // The teammate's own observation, so the view shows exactly what it sees of itself.
    const o = observe(world, state, a.id);
    teammates.push({
      id: a.id,
      role: o.role,
      position: { x: o.position.x, y: o.position.y, biome: o.position.biome },
      hp: o.hp,
      inventory: o.inventory,
      equipment: o.equipment,
      status:
        a.completed !== null
          ? "completed"
          : a.downUntil > state.tick
            ? `down until tick ${a.downUntil}`
            : "active",
    });
  });
  const chat: Message[] = [];
  for (let i = state.messages.length - 1; i >= 0 && chat.length < TEAM_VIEW_CHAT_LINES; i--) {
    const m = state.messages.get(i);
    if (m !== undefined && m.team === me.team) chat.push(m);
  }
  return { teammates, chat: chat.reverse() };
}
