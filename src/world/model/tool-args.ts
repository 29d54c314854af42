import { z } from "zod";

const ref = z.string().min(1).max(80);
const count = z.number().int().min(1).max(100);

/** Argument schemas of the 13 tools, with the descriptions a model sees. */
export const TOOL_ARGS = {
  move_to: z.strictObject({ x: z.number().int(), y: z.number().int() }),
  enter_portal: z.strictObject({ portal: ref.describe("portal or door id") }),
  harvest_resource: z.strictObject({
    target: ref.describe(
      "a harvest point id (node_12) or a resource kind (oak_tree): the nearest available one in view",
    ),
    count: count.max(10).optional().describe("how many harvests to make, moving between points as needed"),
  }),
  attack_entity: z.strictObject({
    target: ref.describe("a mob id (mob_40) or a mob kind (field_rat): the nearest living one in view"),
    loot: z
      .boolean()
      .optional()
      .describe("pick up the drops (default true); false leaves them on the ground"),
  }),
  pickup_item: z.strictObject({
    target: ref.describe("a ground item id (g3) or an item id: the nearest one in view"),
  }),
  craft_item: z.strictObject({
    item: ref.describe("item id to make"),
    count: count.optional(),
    skill: ref.optional().describe("the recipe's skill, if you want it checked"),
  }),
  equip_item: z.strictObject({ item: ref }),
  use_item: z.strictObject({ item: ref.describe("food or potion to eat or drink") }),
  transfer_items: z.strictObject({
    to: ref.describe("teammate agent id"),
    item: ref,
    count: count.max(100000).optional(),
  }),
  trade_npc: z.strictObject({
    npc: ref,
    action: z
      .enum(["buy", "sell", "exchange", "deposit", "withdraw", "quest"])
      .describe(
        "shops: buy, sell; traders: exchange; bankers: deposit, withdraw (the team's bank); quest givers: quest (hand in the current stage's items, or learn what it asks)",
      ),
    item: ref
      .optional()
      .describe("item to buy, sell, receive in an exchange, deposit or withdraw (not used for quest)"),
    count: z
      .number()
      .int()
      .min(1)
      .max(100000)
      .optional()
      .describe("how many (default 1; for deposit and withdraw, all)"),
  }),
  chat: z.strictObject({
    message: z.string().min(1).max(2000),
    to: ref.optional().describe("one teammate; omit to tell the whole team"),
  }),
  wait: z.strictObject({}),
  complete: z.strictObject({ summary: z.string().max(2000).optional() }),
} as const;

export type ToolName = keyof typeof TOOL_ARGS;
export const TOOL_NAMES = Object.keys(TOOL_ARGS) as ToolName[];
export type ToolArgs<T extends ToolName> = z.infer<(typeof TOOL_ARGS)[T]>;

export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  move_to:
    "Walk toward a tile (path-finding included); one call walks at most the per-call limit (30 tiles by default).",
  enter_portal: "Walk to a portal or door in view and go through it (some need a key item).",
  harvest_resource:
    "Walk to a tree, rock, fishing spot or forage patch in view and gather from it (needs skill level and tool).",
  attack_entity: "Walk to a monster in view, fight it to the end and collect its drops.",
  pickup_item: "Walk to an item lying on the ground in view and pick it up.",
  craft_item:
    "Make an item from its recipe, walking to the station it needs (furnace, anvil, range, workbench).",
  equip_item: "Wear or wield an item from your inventory.",
  use_item: "Eat food or drink a potion to restore hit points.",
  transfer_items: "Walk to a teammate and hand over items.",
  trade_npc:
    "Walk to an NPC: buy from or sell to a shop (finite stock), make a trader's exchange, deposit or withdraw at a banker, or do a quest giver's quest.",
  chat: "Send a message to the whole team or one teammate (uses your turn).",
  wait: "Do nothing this turn.",
  complete:
    "Declare your part of the task done; you go offline for the rest of the run (the others play on).",
};

/** A tool call as an agent makes it. */
export const toolCallSchema = z.strictObject({
  tool: z.enum(TOOL_NAMES as [ToolName, ...ToolName[]]),
  args: z.unknown(),
});
export type ToolCall = { tool: ToolName; args: Record<string, unknown> };

/** JSON Schema for each tool, ready for an LLM tool-calling API. */
export function toolJsonSchemas(
  allowed?: readonly string[],
): Array<{ name: ToolName; description: string; parameters: unknown }> {
  return TOOL_NAMES.filter((n) => allowed === undefined || allowed.includes(n)).map((name) => ({
    name,
    description: TOOL_DESCRIPTIONS[name],
    parameters: z.toJSONSchema(TOOL_ARGS[name]),
  }));
}
