import { plazaSlot } from "../map/layout.js";
import { FISH, METALS, TIER_LEVELS, WOODS } from "./data/materials.js";
import type { BiomeDef, ItemDef, LandmarkDef, NpcDef } from "./schema.js";

const FIRST = ["Ada", "Bram", "Cora", "Dain", "Edda", "Finn", "Greta", "Hale", "Ivo", "Juna", "Kell", "Lise"];

/** Eight NPCs in every town: four shops, a banker, two quest givers and a trader; plus the vault keeper. */
export function generateNpcs(
  landmarks: readonly LandmarkDef[],
  biomes: readonly BiomeDef[],
  items: readonly ItemDef[],
): NpcDef[] {
  const price = new Map(items.map((i) => [i.id, i.price]));
  const stock = (ids: string[]): NonNullable<NpcDef["store"]> =>
    ids.filter((id) => price.has(id)).map((item) => ({ item, price: price.get(item) ?? 1 }));
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
      npcs.push({
        ...base(1, "Smith", "shopkeeper"),
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
        store: stock([`${wood}_shaft`, `${wood}_shortbow`, "bowstring", `${metal}_arrow`]),
      });
      npcs.push(base(4, "Banker", "banker"));
      npcs.push({
        ...base(5, "Elder", "quest_giver"),
        quest: `Bring me the ${town.biome} trophy from the warden of ${biome?.name}.`,
      });
      npcs.push({
        ...base(6, "Scout", "quest_giver"),
        quest: `Relics of ${biome?.name} are said to drop from its creatures.`,
      });
      npcs.push({
        ...base(7, "Trader", "trader"),
        trades: [
          { give: { item: `${town.biome}_relic`, qty: 2 }, get: { item: `${town.id}_key`, qty: 1 } },
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
  return npcs;
}
