import type { ToolArgs } from "../model/tool-args.js";
import type { Lot } from "../model/types.js";
import type { Draft } from "../state/draft.js";
import { ToolFailure } from "../state/draft.js";
import { addNewLot, hasRoom, requireItems, takeItems } from "../state/inventory.js";
import { byDistance, connected, travel } from "./travel.js";

/** Make `count` batches of a recipe, walking to the nearest reachable station it needs. */
export function craftItem(d: Draft, args: ToolArgs<"craft_item">): string {
  const { world } = d;
  const recipe = world.recipeFor.get(args.item);
  if (recipe === undefined) throw new ToolFailure("unknown_recipe", `no recipe makes "${args.item}"`);
  if (args.skill !== undefined && args.skill !== recipe.skill) {
    throw new ToolFailure("unknown_recipe", `${args.item} is made with ${recipe.skill}, not ${args.skill}`);
  }
  let agent = d.agent();
  const level = d.levelOf(agent, recipe.skill);
  if (level < recipe.level) {
    throw new ToolFailure(
      "missing_skill",
      `${args.item} needs ${recipe.skill} ${recipe.level} (you have ${level})`,
    );
  }
  const count = args.count ?? 1;
  requireItems(
    d,
    agent,
    recipe.inputs.map((s) => ({ item: s.item, qty: s.qty * count })),
  );
  const outQty = recipe.output.qty * count;
  if (recipe.station !== undefined) {
    const stations = (world.stationsOf.get(recipe.station) ?? [])
      .map((s, i): [number, { x: number; y: number }] => [i, s])
      .filter(([, s]) => connected(d, agent, s.x, s.y));
    const nearest = byDistance(agent, stations)[0];
    if (nearest === undefined)
      throw new ToolFailure("no_station", `no ${recipe.station} can be reached from here`);
    agent = travel(d, agent, nearest[1].x, nearest[1].y);
  }
  const from: Lot["from"] = [];
  for (const input of recipe.inputs) {
    const taken = takeItems(d, agent, input.item, input.qty * count);
    agent = taken.agent;
    from.push(...taken.parts);
  }
  if (!hasRoom(d, agent, recipe.output.item, outQty))
    throw new ToolFailure("inventory_full", `no room for ${outQty} ${args.item}`);
  const seq = d.reserve();
  const added = addNewLot(d, agent, recipe.output.item, outQty, "craft", seq, from);
  agent = d.gainXp(added.agent, recipe.skill, recipe.xp * count);
  d.putAgent(agent);
  d.emit(
    "crafted",
    {
      recipe: recipe.id,
      skill: recipe.skill,
      item: recipe.output.item,
      qty: outQty,
      lot: added.lot.id,
      consumed: from.map((p) => ({ lot: p.lot, qty: p.qty })),
      station: recipe.station ?? null,
    },
    seq,
  );
  return `crafted ${outQty} ${args.item}`;
}
