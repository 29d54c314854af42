import type { RoleDef } from "../model/roles.js";
import type { ContentPack, Skill } from "../model/schema.js";

const GATHER_TOOL = "harvest_resource";
const CRAFT_TOOL = "craft_item";
const FIGHT_TOOL = "attack_entity";

export interface SoloChain {
  item: string;
  /** The role's abilities one route to the item uses (skills, plus `combat` for mob drops). */
  uses: string[];
}

/**
 * Items a role could make entirely alone by a route that uses two or more of its abilities: a
 * gathering or crafting skill it has (with the tool to use it) or fighting (mob drops). Anything a
 * shop, trader, quest or vault hands out counts as free to everyone, which makes the search
 * stricter, not looser. Levels are ignored (they grow with practice). An empty result means every
 * chain of two or more skills needs a hand-over from another role.
 */
export function soloChains(
  pack: Pick<ContentPack, "recipes" | "resources" | "mobs" | "npcs" | "loot">,
  role: RoleDef,
): SoloChain[] {
  const abilities: string[] = [];
  const has = (skill: Skill): boolean => (role.skills[skill] ?? 0) > 0;
  const can = (tool: string): boolean => role.tools.includes(tool);
  const gather = new Set(pack.resources.map((r) => r.skill));
  for (const skill of Object.keys(role.skills) as Skill[]) {
    if (!has(skill)) continue;
    if ((can(GATHER_TOOL) && gather.has(skill)) || (can(CRAFT_TOOL) && isRecipeSkill(pack, skill)))
      abilities.push(skill);
  }
  const fights = can(FIGHT_TOOL) && has("attack");
  if (fights) abilities.push("combat");
  const bit = (a: string): number => 1 << abilities.indexOf(a);

  const routes = new Map<string, Set<number>>();
  const add = (item: string, mask: number): boolean => {
    const set = routes.get(item) ?? new Set<number>();
    routes.set(item, set);
    if (set.has(mask)) return false;
    set.add(mask);
    return true;
  };
  for (const n of pack.npcs) {
    for (const s of n.store ?? []) add(s.item, 0);
    for (const t of n.trades ?? []) add(t.get.item, 0);
    for (const stage of n.quest?.stages ?? []) for (const r of stage.reward) add(r.item, 0);
  }
  for (const l of pack.loot) add(l.item, 0);
  for (const r of pack.resources)
    if (can(GATHER_TOOL) && abilities.includes(r.skill)) add(r.yield.item, bit(r.skill));
  if (fights) for (const m of pack.mobs) for (const d of m.drops) add(d.item, bit("combat"));

  const recipes = pack.recipes.filter((r) => can(CRAFT_TOOL) && abilities.includes(r.skill));
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of recipes) {
      let combos = [bit(r.skill)];
      for (const input of r.inputs) {
        const options = [...(routes.get(input.item) ?? [])];
        combos = combos.flatMap((c) => options.map((o) => c | o));
      }
      for (const c of new Set(combos)) if (add(r.output.item, c)) changed = true;
    }
  }
  const out: SoloChain[] = [];
  for (const [item, masks] of routes) {
    const multi = [...masks].find((m) => popcount(m) >= 2);
    if (multi !== undefined) out.push({ item, uses: abilities.filter((a) => (multi & bit(a)) !== 0) });
  }
  return out;
}

function isRecipeSkill(pack: Pick<ContentPack, "recipes">, skill: Skill): boolean {
  return pack.recipes.some((r) => r.skill === skill);
}

function popcount(n: number): number {
  let c = 0;
  for (let m = n; m !== 0; m &= m - 1) c++;
  return c;
}
