import { z } from "zod";
import { SKILLS } from "./content/schema.js";
import { TOOL_NAMES } from "./tools/schemas.js";

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
  tools: z.array(z.enum(TOOL_NAMES as [string, ...string[]])),
  /** What the role document covers: recipes of these skills, nodes of these skills, monster facts. */
  knows: z.strictObject({ monsters: z.boolean() }),
});
export type RoleDef = z.infer<typeof roleSchema>;

/**
 * Built-in roles. Each has skills the others lack (so teams must hand items over), its own
 * starting kit, its own tools, and its own role document.
 */
export const ROLES: RoleDef[] = [
  {
    id: "lumberjack",
    name: "Lumberjack",
    summary: "Fells trees and forages.",
    skills: { woodcutting: 40, foraging: 30 },
    items: [
      { item: "bronze_axe", qty: 1 },
      { item: "coins", qty: 50 },
    ],
    tools: [...COMMON, "harvest_resource"],
    knows: { monsters: false },
  },
  {
    id: "miner",
    name: "Miner",
    summary: "Mines ore and gems.",
    skills: { mining: 40, foraging: 10 },
    items: [
      { item: "bronze_pickaxe", qty: 1 },
      { item: "coins", qty: 50 },
    ],
    tools: [...COMMON, "harvest_resource"],
    knows: { monsters: false },
  },
  {
    id: "smith",
    name: "Smith",
    summary: "Smelts bars and forges metal gear at furnace and anvil.",
    skills: { smelting: 40, smithing: 40 },
    items: [{ item: "coins", qty: 100 }],
    tools: [...COMMON, "craft_item"],
    knows: { monsters: false },
  },
  {
    id: "fletcher",
    name: "Fletcher",
    summary: "Cuts shafts and strings bows; crafts leather and cloth.",
    skills: { fletching: 40, crafting: 30 },
    items: [{ item: "coins", qty: 100 }],
    tools: [...COMMON, "craft_item"],
    knows: { monsters: false },
  },
  {
    id: "fisher_cook",
    name: "Fisher-cook",
    summary: "Catches and cooks fish.",
    skills: { fishing: 40, cooking: 40 },
    items: [
      { item: "fishing_rod", qty: 1 },
      { item: "coins", qty: 50 },
    ],
    tools: [...COMMON, "harvest_resource", "craft_item"],
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
    summary: "Buys and sells; starts rich.",
    skills: {},
    items: [{ item: "coins", qty: 2000 }],
    tools: COMMON,
    knows: { monsters: false },
  },
];

export function roleById(id: string): RoleDef | undefined {
  return ROLES.find((r) => r.id === id);
}
