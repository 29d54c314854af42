import {
  TOOL_ARGS,
  TOOL_DESCRIPTIONS,
  TOOL_NAMES,
  type ToolArgs,
  type ToolName,
} from "../model/tool-args.js";
import type { Draft } from "../state/draft.js";
import { attackEntity, equipItem, useItem } from "./combat.js";
import { craftItem } from "./craft.js";
import { harvestResource, pickupItem } from "./gather.js";
import type { ToolOutcome, WorldTool } from "./registry.js";
import { chat, enterPortal, moveTo, tradeNpc, transferItems } from "./social.js";

const HANDLERS: { [K in ToolName]: (d: Draft, args: ToolArgs<K>) => ToolOutcome } = {
  move_to: moveTo,
  enter_portal: enterPortal,
  harvest_resource: harvestResource,
  attack_entity: attackEntity,
  pickup_item: pickupItem,
  craft_item: craftItem,
  equip_item: equipItem,
  use_item: useItem,
  transfer_items: transferItems,
  trade_npc: tradeNpc,
  chat,
  wait: () => "waited",
  // Per agent: the caller goes offline (its later turns are skipped); teammates play on.
  complete: (d, args) => {
    const summary = args.summary ?? "";
    d.putAgent({ ...d.agent(), completed: { tick: d.s.tick, summary } });
    d.emit("completed", { summary });
    return "declared your part complete; you are offline for the rest of the run";
  },
};

/** The 13 built-in tools, in the order of `TOOL_NAMES`; the registry registers them on load. */
export const BUILTIN_WORLD_TOOLS: readonly WorldTool[] = TOOL_NAMES.map((name) => ({
  name,
  description: TOOL_DESCRIPTIONS[name],
  args: TOOL_ARGS[name],
  handler: HANDLERS[name],
}));
