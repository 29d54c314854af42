import { z } from "zod";

/** Every skill an agent can have; roles grant levels in a subset of them. */
export const SKILLS = [
  "woodcutting",
  "mining",
  "fishing",
  "foraging",
  "smelting",
  "smithing",
  "crafting",
  "fletching",
  "cooking",
  "alchemy",
  "attack",
  "defence",
] as const;
export type Skill = (typeof SKILLS)[number];

export const SLOTS = ["weapon", "head", "body", "legs", "shield", "feet", "hands", "neck", "ring"] as const;
export type Slot = (typeof SLOTS)[number];

export const ITEM_TYPES = [
  "resource",
  "material",
  "weapon",
  "armour",
  "tool",
  "food",
  "potion",
  "ammo",
  "jewellery",
  "key",
  "currency",
  "quest",
] as const;

export const STATIONS = ["furnace", "anvil", "range", "workbench"] as const;
export type StationKind = (typeof STATIONS)[number];

const id = z.string().regex(/^[a-z0-9_]+$/, "ids are lower-case letters, digits and underscores");
const level = z.number().int().min(1).max(99);
const coord = z.number().int().min(0);

export const itemSchema = z.strictObject({
  id,
  name: z.string().min(1),
  type: z.enum(ITEM_TYPES),
  slot: z.enum(SLOTS).optional(),
  tier: z.number().int().min(0).max(8),
  level,
  /** Skill whose level `level` refers to when equipping or using the item. */
  levelSkill: z.enum(SKILLS).optional(),
  stats: z.strictObject({ attack: z.number().int(), defence: z.number().int() }),
  stackSize: z.number().int().min(1),
  heal: z.number().int().min(1).optional(),
  price: z.number().int().min(0),
  /** For tools: the gathering skill they enable and how much faster they make it. */
  toolFor: z.enum(SKILLS).optional(),
});
export type ItemDef = z.infer<typeof itemSchema>;

const stack = z.strictObject({ item: id, qty: z.number().int().min(1) });
export type Stack = z.infer<typeof stack>;

export const recipeSchema = z.strictObject({
  id,
  skill: z.enum(SKILLS),
  level,
  inputs: z.array(stack).min(1),
  output: stack,
  station: z.enum(STATIONS).optional(),
  xp: z.number().int().min(0),
});
export type RecipeDef = z.infer<typeof recipeSchema>;

export const RESOURCE_KINDS = ["tree", "rock", "fishing_spot", "forage"] as const;
export const resourceSchema = z.strictObject({
  id,
  name: z.string().min(1),
  kind: z.enum(RESOURCE_KINDS),
  skill: z.enum(SKILLS),
  level,
  /** Item id of the tool that must be carried or equipped, if any (any tier of that tool works). */
  tool: z.enum(["axe", "pickaxe", "rod"]).optional(),
  yield: stack,
  respawnTicks: z.number().int().min(1),
  xp: z.number().int().min(0),
  biomes: z.array(id).min(1),
});
export type ResourceDef = z.infer<typeof resourceSchema>;

export const mobSchema = z.strictObject({
  id,
  name: z.string().min(1),
  biome: id,
  level,
  hp: z.number().int().min(1),
  attack: z.number().int().min(0),
  defence: z.number().int().min(0),
  aggressive: z.boolean(),
  aggroRange: z.number().int().min(0).max(16),
  drops: z.array(
    z.strictObject({
      item: id,
      min: z.number().int().min(1),
      max: z.number().int().min(1),
      weight: z.number().positive(),
    }),
  ),
  /** Number of weighted draws from `drops` on each kill (coins and bones are separate draws). */
  dropRolls: z.number().int().min(0).max(8),
  respawnTicks: z.number().int().min(1),
  boss: z.boolean(),
});
export type MobDef = z.infer<typeof mobSchema>;

export const NPC_ROLES = ["shopkeeper", "banker", "quest_giver", "trader"] as const;

/** One line of a shop: it sells `item` at `price` while `stock` lasts and, if `buy` is set, buys it back. */
export const storeEntrySchema = z.strictObject({
  item: id,
  /** Coins an agent pays per unit. */
  price: z.number().int().min(1),
  /** Units on hand when the world starts; shops do not restock (units sold to them are resold). */
  stock: z.number().int().min(0),
  /** Coins the shop pays per unit; absent: it does not buy this item. Shops buy only what they list. */
  buy: z.number().int().min(1).optional(),
});
export type StoreEntry = z.infer<typeof storeEntrySchema>;

/** A quest: stages done in order; each asks for items and rewards items (coins are items). */
export const questSchema = z.strictObject({
  text: z.string().min(1),
  stages: z
    .array(
      z.strictObject({
        ask: z.array(stack).min(1),
        reward: z.array(stack).min(1),
      }),
    )
    .min(1),
});
export type QuestDef = z.infer<typeof questSchema>;

export const npcSchema = z.strictObject({
  id,
  name: z.string().min(1),
  role: z.enum(NPC_ROLES),
  x: coord,
  y: coord,
  /** Shopkeepers: what they sell and buy. */
  store: z.array(storeEntrySchema).optional(),
  /** Shopkeepers: raw goods they buy for `price` coins per unit and never resell. */
  buys: z.array(z.strictObject({ item: id, price: z.number().int().min(1) })).optional(),
  /** Traders: fixed exchanges, `give` from the agent for `get`. */
  trades: z.array(z.strictObject({ give: stack, get: stack })).optional(),
  /** Quest givers: the quest, done once per team. */
  quest: questSchema.optional(),
});
export type NpcDef = z.infer<typeof npcSchema>;

export const biomeSchema = z.strictObject({
  id,
  name: z.string().min(1),
  levelMin: level,
  levelMax: level,
  color: z.tuple([
    z.number().int().min(0).max(255),
    z.number().int().min(0).max(255),
    z.number().int().min(0).max(255),
  ]),
});
export type BiomeDef = z.infer<typeof biomeSchema>;

export const portalSchema = z.strictObject({
  id,
  name: z.string().min(1),
  kind: z.enum(["portal", "door"]),
  x: coord,
  y: coord,
  toX: coord,
  toY: coord,
  requiresItem: id.optional(),
});
export type PortalDef = z.infer<typeof portalSchema>;

/** Items lying somewhere when the world starts (vault treasure). */
export const lootSchema = z.strictObject({ id, item: id, qty: z.number().int().min(1), x: coord, y: coord });
export type LootDef = z.infer<typeof lootSchema>;

export const stationSchema = z.strictObject({ id, kind: z.enum(STATIONS), x: coord, y: coord });
export type StationDef = z.infer<typeof stationSchema>;

export const nodeSchema = z.strictObject({ id, resource: id, x: coord, y: coord });
export type NodeDef = z.infer<typeof nodeSchema>;

export const spawnSchema = z.strictObject({ id, mob: id, x: coord, y: coord });
export type SpawnDef = z.infer<typeof spawnSchema>;

export const landmarkSchema = z.strictObject({
  id,
  name: z.string().min(1),
  kind: z.enum(["town", "dungeon", "ruin"]),
  biome: id,
  x: coord,
  y: coord,
  radius: z.number().int().min(2).max(40),
});
export type LandmarkDef = z.infer<typeof landmarkSchema>;

export const worldMetaSchema = z.strictObject({
  name: z.string().min(1),
  version: z.number().int().min(1),
  /** The map is regenerated from this seed on load; only placements are stored. */
  mapSeed: z.number().int().min(0),
  width: z.number().int().min(64).max(4096),
  height: z.number().int().min(64).max(4096),
  spawn: z.strictObject({ x: coord, y: coord }),
});
export type WorldMeta = z.infer<typeof worldMetaSchema>;

/** One JSON file per key; the file name is `<key>.json`. */
export const PACK_FILES = {
  world: worldMetaSchema,
  biomes: z.array(biomeSchema),
  landmarks: z.array(landmarkSchema),
  items: z.array(itemSchema),
  recipes: z.array(recipeSchema),
  resources: z.array(resourceSchema),
  mobs: z.array(mobSchema),
  npcs: z.array(npcSchema),
  portals: z.array(portalSchema),
  stations: z.array(stationSchema),
  nodes: z.array(nodeSchema),
  spawns: z.array(spawnSchema),
  loot: z.array(lootSchema),
} as const;

export interface ContentPack {
  world: WorldMeta;
  biomes: BiomeDef[];
  landmarks: LandmarkDef[];
  items: ItemDef[];
  recipes: RecipeDef[];
  resources: ResourceDef[];
  mobs: MobDef[];
  npcs: NpcDef[];
  portals: PortalDef[];
  stations: StationDef[];
  nodes: NodeDef[];
  spawns: SpawnDef[];
  loot: LootDef[];
}
export type PackKey = keyof ContentPack;
