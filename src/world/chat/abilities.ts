import type { World } from "../build/world.js";
import type { AgentState } from "../model/types.js";

/**
 * Whether an agent could act on "craft X" or "gather X": it may use the tool and has the skill at
 * the level the recipe or harvest point needs. X is an item made by a recipe, a resource kind, or
 * the item a resource kind yields. Null when X is none of these (nothing to judge).
 */
export function canDo(
  world: World,
  agent: AgentState,
  verb: "craft" | "gather",
  thing: string,
): boolean | null {
  const needs =
    verb === "craft"
      ? [world.recipeFor.get(thing)].filter((r) => r !== undefined)
      : [...world.resource.values()].filter((r) => r.id === thing || r.yield.item === thing);
  if (needs.length === 0) return null;
  const tool = verb === "craft" ? "craft_item" : "harvest_resource";
  if (!agent.allowedTools.includes(tool)) return false;
  return needs.some((n) => (agent.skills[n.skill]?.level ?? 0) >= n.level);
}
