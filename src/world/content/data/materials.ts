/**
 * Template tables for generated content. Every list has eight entries, one per tier; tier t has
 * level requirement TIER_LEVELS[t - 1]. Names are made up for this world.
 */
export const TIER_LEVELS = [1, 10, 20, 30, 40, 50, 60, 70] as const;

export const METALS = ["bronze", "iron", "steel", "mithril", "adamant", "rune", "dragon", "astral"] as const;
/** Ore(s) each metal's bar is smelted from. */
export const BAR_INPUTS: ReadonlyArray<ReadonlyArray<readonly [string, number]>> = [
  [
    ["copper_ore", 1],
    ["tin_ore", 1],
  ],
  [["iron_ore", 1]],
  [
    ["iron_ore", 1],
    ["coal", 2],
  ],
  [
    ["mithril_ore", 1],
    ["coal", 2],
  ],
  [
    ["adamantite_ore", 1],
    ["coal", 3],
  ],
  [
    ["runite_ore", 1],
    ["coal", 4],
  ],
  [
    ["dragonite_ore", 1],
    ["coal", 4],
  ],
  [
    ["astralite_ore", 1],
    ["coal", 5],
  ],
];
/** [id, mining level, tier] for every ore rock. */
export const ORES: ReadonlyArray<readonly [string, number, number]> = [
  ["copper_ore", 1, 1],
  ["tin_ore", 1, 1],
  ["iron_ore", 10, 2],
  ["silver_ore", 15, 2],
  ["coal", 20, 3],
  ["gold_ore", 25, 3],
  ["mithril_ore", 30, 4],
  ["adamantite_ore", 40, 5],
  ["runite_ore", 50, 6],
  ["dragonite_ore", 60, 7],
  ["astralite_ore", 70, 8],
];

/** [suffix, slot or null, bars, attack per tier, defence per tier, skill the item is gated on]. */
export const SMITHED: ReadonlyArray<readonly [string, string | null, number, number, number, string]> = [
  ["dagger", "weapon", 1, 3, 0, "attack"],
  ["sword", "weapon", 2, 5, 0, "attack"],
  ["longsword", "weapon", 3, 7, 0, "attack"],
  ["mace", "weapon", 2, 5, 1, "attack"],
  ["battleaxe", "weapon", 3, 8, 0, "attack"],
  ["spear", "weapon", 2, 6, 0, "attack"],
  ["helmet", "head", 1, 0, 2, "defence"],
  ["platebody", "body", 5, 0, 6, "defence"],
  ["platelegs", "legs", 3, 0, 4, "defence"],
  ["kiteshield", "shield", 3, 0, 4, "defence"],
  ["boots", "feet", 1, 0, 1, "defence"],
  ["gauntlets", "hands", 1, 1, 1, "defence"],
  ["axe", null, 1, 2, 0, "woodcutting"],
  ["pickaxe", null, 2, 2, 0, "mining"],
  ["arrowheads", null, 1, 0, 0, "smithing"],
];

export const WOODS = ["pine", "oak", "willow", "maple", "yew", "magic", "elder", "spirit"] as const;
export const HIDES = ["cow", "wolf", "boar", "bear", "snake", "croc", "wyvern", "dragon"] as const;
/** [suffix, slot, leather needed, attack per tier, defence per tier]. */
export const LEATHER_PIECES: ReadonlyArray<readonly [string, string, number, number, number]> = [
  ["coif", "head", 1, 0, 1],
  ["body", "body", 3, 0, 3],
  ["chaps", "legs", 2, 0, 2],
  ["vambraces", "hands", 1, 1, 1],
  ["boots", "feet", 1, 0, 1],
];
export const ESSENCES = ["air", "water", "earth", "fire", "mind", "chaos", "death", "astral"] as const;
export const FISH = [
  "shrimp",
  "sardine",
  "trout",
  "salmon",
  "tuna",
  "lobster",
  "swordfish",
  "shark",
] as const;
export const HERBS = [
  "guam",
  "marrentill",
  "tarromin",
  "harralander",
  "ranarr",
  "irit",
  "kwuarm",
  "torstol",
] as const;
export const POTIONS = [
  "healing",
  "strength",
  "defence",
  "agility",
  "vigour",
  "energy",
  "magic",
  "restore",
] as const;
export const GEMS = ["opal", "jade", "topaz", "sapphire", "emerald", "ruby", "diamond", "onyx"] as const;
export const MEATS = ["beef", "chicken", "boar_meat", "venison"] as const;
/** One forage fruit per biome, in biome order. */
export const FRUITS = [
  "frost_berry",
  "highland_apple",
  "ember_fig",
  "forest_mushroom",
  "meadow_berry",
  "swamp_root",
  "coconut",
  "cactus_fruit",
  "gloom_truffle",
] as const;

/** Creature templates: [name, hp factor, attack factor, defence factor, aggressive, family]. */
export const CREATURES: ReadonlyArray<readonly [string, number, number, number, boolean, string]> = [
  ["rat", 0.6, 0.6, 0.5, false, "beast"],
  ["spider", 0.7, 0.9, 0.6, true, "beast"],
  ["wolf", 1, 1, 0.8, true, "beast"],
  ["boar", 1.1, 0.9, 1, false, "beast"],
  ["bandit", 1, 1, 1, true, "humanoid"],
  ["goblin", 0.8, 0.8, 0.8, true, "humanoid"],
  ["skeleton", 0.9, 1, 0.9, true, "undead"],
  ["zombie", 1.2, 0.8, 0.7, false, "undead"],
  ["bear", 1.5, 1.2, 1.1, false, "beast"],
  ["serpent", 0.9, 1.1, 0.8, true, "beast"],
  ["bat", 0.5, 0.7, 0.4, false, "beast"],
  ["crab", 0.8, 0.6, 1.4, false, "beast"],
  ["imp", 0.7, 1.1, 0.7, true, "magic"],
  ["golem", 1.8, 1, 1.6, false, "magic"],
  ["troll", 1.7, 1.3, 1.2, true, "humanoid"],
  ["knight", 1.4, 1.3, 1.5, false, "humanoid"],
];
/** Name prefix of each biome's creatures, in biome order. */
export const BIOME_PREFIX = [
  "Frost",
  "Crag",
  "Ember",
  "Wood",
  "Field",
  "Bog",
  "Tide",
  "Dune",
  "Gloom",
] as const;
