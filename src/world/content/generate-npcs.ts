import { plazaSlot, VAULT_TOWNS } from "../map/layout.js";
import type {
  BiomeDef,
  ItemDef,
  LandmarkDef,
  NpcDef,
  QuestDef,
  RecipeDef,
  StoreEntry,
} from "../model/schema.js";
import { BAR_INPUTS, FISH, HIDES, METALS, ORES, TIER_LEVELS, WOODS } from "./data/materials.js";
import { maxBuyBack, purchaseCosts } from "./prices.js";

const FIRST = ["Ada", "Bram", "Cora", "Dain", "Edda", "Finn", "Greta", "Hale", "Ivo", "Juna", "Kell", "Lise"];

/** Units a shop holds at the start, by item type (shops never restock). */
const STOCK: Partial<Record<ItemDef["type"], number>> = {
  resource: 40,
  material: 40,
  food: 20,
  potion: 10,
  ammo: 60,
  tool: 4,
  weapon: 2,
  armour: 2,
};

/**
 * Eight NPCs in every town: four shops, a banker, two quest givers and a trader; plus the vault
 * keeper. Shops hold finite stock and buy back only what they list, for at most half the price
 * and never more than the cheapest way to make the item from bought inputs, so no sequence of
 * buying, crafting and selling makes money.
 */
export function generateNpcs(
  landmarks: readonly LandmarkDef[],
  biomes: readonly BiomeDef[],
  items: readonly ItemDef[],
  recipes: readonly RecipeDef[],
): NpcDef[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const stock = (ids: string[]): StoreEntry[] =>
    ids.flatMap((id) => {
      const def = byId.get(id);
      return def === undefined ? [] : [{ item: id, price: def.price, stock: STOCK[def.type] ?? 5 }];
    });
  const npcs: NpcDef[] = [];
  landmarks
    .filter((l) => l.kind === "town")
    .forEach((town, n) => {
      const biome = biomes.find((b) => b.id === town.biome);
      const tier = Math.max(1, TIER_LEVELS.filter((l) => l <= (biome?.levelMin ?? 1)).length);
      const metal = METALS[tier - 1] ?? "bronze";
      const wood = WOODS[tier - 1] ?? "pine";
      const name = (k: number, what: string): string => `${FIRST[(n + k) % FIRST.length]} the ${what}`;
      const at = (k: number): { x: number; y: number } => {
        const [x, y] = plazaSlot(town, k);
        return { x, y };
      };
      const base = (k: number, what: string, role: NpcDef["role"]): NpcDef => ({
        id: `${town.id}_${what.toLowerCase().replace(/ /g, "_")}`,
        name: name(k, what),
        role,
        ...at(k),
      });
      npcs.push({
        ...base(0, "Grocer", "shopkeeper"),
        store: stock([
          "bronze_axe",
          "bronze_pickaxe",
          "fishing_rod",
          "vial",
          "thread",
          "feather",
          "flax",
          "sand",
        ]),
      });
      const wants = (ids: string[]): NonNullable<NpcDef["buys"]> =>
        ids.filter((id) => byId.has(id)).map((item) => ({ item, price: 0 }));
      npcs.push({
        ...base(1, "Smith", "shopkeeper"),
        buys: wants([...new Set((BAR_INPUTS[tier - 1] ?? []).map(([ore]) => ore))]),
        store: stock([
          `${metal}_bar`,
          `${metal}_sword`,
          `${metal}_helmet`,
          `${metal}_axe`,
          `${metal}_pickaxe`,
        ]),
      });
      npcs.push({
        ...base(2, "Cook", "shopkeeper"),
        store: stock([`cooked_${FISH[tier - 1]}`, "cooked_beef", "cooked_chicken", `raw_${FISH[tier - 1]}`]),
      });
      npcs.push({
        ...base(3, "Bowyer", "shopkeeper"),
        buys: wants([`${wood}_log`, `${HIDES[tier - 1] ?? "cow"}_hide`]),
        store: stock([`${wood}_shaft`, `${wood}_shortbow`, "bowstring", `${metal}_arrow`]),
      });
      npcs.push(base(4, "Banker", "banker"));
      npcs.push({ ...base(5, "Elder", "quest_giver"), quest: elderQuest(town, biome, tier) });
      npcs.push({ ...base(6, "Scout", "quest_giver"), quest: scoutQuest(town, tier) });
      const hasVault = (VAULT_TOWNS as readonly string[]).includes(town.id);
      npcs.push({
        ...base(7, "Trader", "trader"),
        trades: [
          hasVault
            ? { give: { item: `${town.biome}_relic`, qty: 2 }, get: { item: `${town.id}_key`, qty: 1 } }
            : { give: { item: `${town.biome}_relic`, qty: 2 }, get: { item: "coins", qty: 90 } },
          { give: { item: "bones", qty: 10 }, get: { item: "coins", qty: 40 } },
          ...(town.biome === "shadow"
            ? [{ give: { item: "shadow_relic", qty: 3 }, get: { item: "deepvault_key", qty: 1 } }]
            : []),
        ],
      });
    });
  const d = landmarks.find((l) => l.kind === "dungeon");
  if (d !== undefined) {
    npcs.push({
      id: "vault_keeper",
      name: "The Vault Keeper",
      role: "trader",
      x: d.x - 1,
      y: d.y + 1,
      trades: [{ give: { item: "shadow_trophy", qty: 1 }, get: { item: "coins", qty: 5000 } }],
    });
  }
  const costs = purchaseCosts({ npcs, recipes });
  for (const n of npcs) {
    for (const entry of n.store ?? []) {
      const buy = maxBuyBack(costs, entry.item, entry.price);
      if (buy >= 1) entry.buy = buy;
    }
    const wanted = (n.buys ?? []).map((b) => ({
      item: b.item,
      price: maxBuyBack(costs, b.item, byId.get(b.item)?.price ?? 0),
    }));
    if (n.buys !== undefined) n.buys = wanted.filter((b) => b.price >= 1);
  }
  return npcs;
}

/** The elder wants the biome's relics, then its warden's trophy. */
function elderQuest(town: LandmarkDef, biome: BiomeDef | undefined, tier: number): QuestDef {
  const metal = METALS[Math.min(7, tier)] ?? "bronze";
  return {
    text: `Prove yourselves against the creatures of ${biome?.name ?? town.biome}: bring me two of its relics, then the trophy of its warden.`,
    stages: [
      { ask: [{ item: `${town.biome}_relic`, qty: 2 }], reward: [{ item: "coins", qty: 40 * tier + 60 }] },
      {
        ask: [{ item: `${town.biome}_trophy`, qty: 1 }],
        reward: [
          { item: "coins", qty: 300 * tier },
          { item: `${metal}_longsword`, qty: 1 },
        ],
      },
    ],
  };
}

/** The scout wants gathered goods of the town's tier, then leather worked from hunted hides. */
function scoutQuest(town: LandmarkDef, tier: number): QuestDef {
  const wood = WOODS[tier - 1] ?? "pine";
  const ore = ORES.filter(([, , t]) => t === tier)[0]?.[0] ?? "copper_ore";
  const hide = HIDES[tier - 1] ?? "cow";
  return {
    text: `${town.name} needs supplies: ${wood} logs and ${ore.replace(/_/g, " ")} first, then ${hide} leather.`,
    stages: [
      {
        ask: [
          { item: `${wood}_log`, qty: 5 },
          { item: ore, qty: 5 },
        ],
        reward: [{ item: "coins", qty: 30 * tier + 20 }],
      },
      { ask: [{ item: `${hide}_leather`, qty: 3 }], reward: [{ item: "coins", qty: 60 * tier + 40 }] },
    ],
  };
}
