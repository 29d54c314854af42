import { z } from "zod";
import { SKILLS } from "./schema.js";

const COMMON = [
  "move_to",
  "enter_portal",
  "pickup_item",
  "equip_item",
  "use_item",
  "transfer_items",
  "trade_npc",
  "chat",
  "wait",
  "complete",
];

export const roleSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9_]+$/),
  name: z.string().min(1),
  summary: z.string(),
  skills: z.partialRecord(z.enum(SKILLS), z.number().int().min(1).max(99)),
  items: z.array(z.strictObject({ item: z.string(), qty: z.number().int().min(1) })),
  // Built-in tool names for the built-in roles; a merged role recorded in a run file may also
  // hold a task's registered extra tools (checked against the registry when the task loads).
  tools: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/)),
  /** What the role document covers beyond its skills' recipes and resources. */
  knows: z.strictObject({
    monsters: z.boolean(),
    /** Every shop (stock and prices), trader, quest and banker. */
    npcs: z.boolean().optional(),
  }),
});
export type RoleDef = z.infer<typeof roleSchema>;

/**
 * Built-in roles. A skill a role does not list is level 0 for it: it cannot gather, craft or
 * fight with that skill. Skills are split so that no role can both make an item and use it in a
 * recipe of another skill (mining and smelting, fishing and cooking, fighting and leather work
 * belong to different roles): every chain of two or more skills needs a hand-over. Three roles
 * fight, with different strength: the warrior well, the lumberjack and the miner poorly.
 */
export const ROLES: RoleDef[] = [
  {
    id: "lumberjack",
    name: "Lumberjack",
    summary: "Fells trees and forages; can swing an axe at weak monsters.",
    skills: { woodcutting: 40, foraging: 30, attack: 12, defence: 10 },
    items: [
      { item: "bronze_axe", qty: 1 },
      { item: "coins", qty: 50 },
    ],
    tools: [...COMMON, "harvest_resource", "attack_entity"],
    knows: { monsters: true },
  },
  {
    id: "miner",
    name: "Miner",
    summary: "Mines ore and gems; tough enough to fight off small monsters.",
    skills: { mining: 40, foraging: 10, attack: 8, defence: 16 },
    items: [
      { item: "bronze_pickaxe", qty: 1 },
      { item: "coins", qty: 50 },
    ],
    tools: [...COMMON, "harvest_resource", "attack_entity"],
    knows: { monsters: true },
  },
  {
    id: "smith",
    name: "Smith",
    summary: "Smelts bars and forges metal gear at furnace and anvil; cannot mine.",
    skills: { smelting: 40, smithing: 40 },
    items: [{ item: "coins", qty: 100 }],
    tools: [...COMMON, "craft_item"],
    knows: { monsters: false },
  },
  {
    id: "fletcher",
    name: "Fletcher",
    summary: "Cuts shafts and strings bows; crafts leather, cloth and planks.",
    skills: { fletching: 40, crafting: 30 },
    items: [{ item: "coins", qty: 100 }],
    tools: [...COMMON, "craft_item"],
    knows: { monsters: false },
  },
  {
    id: "fisher",
    name: "Fisher",
    summary: "Catches fish and forages; cannot cook.",
    skills: { fishing: 40, foraging: 20 },
    items: [
      { item: "fishing_rod", qty: 1 },
      { item: "coins", qty: 50 },
    ],
    tools: [...COMMON, "harvest_resource"],
    knows: { monsters: false },
  },
  {
    id: "cook",
    name: "Cook",
    summary: "Cooks fish and meat at a range; cannot fish or hunt.",
    skills: { cooking: 40 },
    items: [{ item: "coins", qty: 50 }],
    tools: [...COMMON, "craft_item"],
    knows: { monsters: false },
  },
  {
    id: "alchemist",
    name: "Alchemist",
    summary: "Brews potions, cuts gems and enchants staves.",
    skills: { alchemy: 40, crafting: 40 },
    items: [
      { item: "vial", qty: 5 },
      { item: "coins", qty: 100 },
    ],
    tools: [...COMMON, "craft_item"],
    knows: { monsters: false },
  },
  {
    id: "warrior",
    name: "Warrior",
    summary: "Fights monsters and wears heavy gear; cannot gather or craft.",
    skills: { attack: 30, defence: 30 },
    items: [
      { item: "bronze_dagger", qty: 1 },
      { item: "cooked_shrimp", qty: 5 },
      { item: "coins", qty: 50 },
    ],
    tools: [...COMMON, "attack_entity"],
    knows: { monsters: true },
  },
  {
    id: "merchant",
    name: "Merchant",
    summary: "Buys and sells; starts rich; knows every shop, quest and banker.",
    skills: {},
    items: [{ item: "coins", qty: 2000 }],
    tools: COMMON,
    knows: { monsters: false, npcs: true },
  },
];

export function roleById(id: string): RoleDef | undefined {
  return ROLES.find((r) => r.id === id);
}
