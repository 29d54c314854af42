import { z } from "zod";
import { SKILLS, SLOTS } from "../model/schema.js";

/** The kinds of world task; a dataset reports results per category. */
export const WORLD_TASK_CATEGORIES = [
  "combat",
  "crafting",
  "gathering",
  "trading",
  "exploration",
  "survival",
  "construction",
  "collaboration",
] as const;
export type WorldTaskCategory = (typeof WORLD_TASK_CATEGORIES)[number];

const id = z.string().regex(/^[a-z0-9_]+$/, "expected an id of a-z, 0-9 and _");
const taskId = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "expected an id of a-z, 0-9, _ and -");
const coord = z.number().int().min(0);
const qty = z.number().int().min(1);
const point = z.strictObject({ x: coord, y: coord });

const holds = z.strictObject({
  holds: z.strictObject({
    item: id,
    qty: qty.default(1),
    agent: id.optional().describe("one agent; omit for the whole team"),
  }),
});
const equipped = z.strictObject({ equipped: z.strictObject({ item: id, agent: id.optional() }) });
const crafted = z.strictObject({
  crafted: z.strictObject({ item: id, qty: qty.default(1), agent: id.optional() }),
});
const gathered = z.strictObject({
  gathered: z.strictObject({ item: id, qty: qty.default(1), agent: id.optional() }),
});
const killed = z.strictObject({
  killed: z.strictObject({
    mob: id.describe("a mob kind (field_rat), a spawn id (mob_40) or a placed mob's id"),
    qty: qty.default(1),
    agent: id.optional(),
  }),
});
const visited = z.strictObject({
  visited: z.strictObject({
    region: z.strictObject({ x: coord, y: coord, w: qty, h: qty }),
    agent: id.optional().describe("one agent; omit for any team member"),
  }),
});
const delivered = z.strictObject({
  delivered: z
    .strictObject({
      item: id,
      qty: qty.default(1),
      to: id.optional().describe("a teammate receiving it by transfer_items"),
      npc: id.optional().describe("an NPC receiving it by trade_npc sell or exchange"),
      from: id.optional(),
    })
    .refine((d) => (d.to === undefined) !== (d.npc === undefined), "give exactly one of to and npc"),
});
const allAlive = z.strictObject({ all_alive: z.literal(true) });
const withinRounds = z.strictObject({ within_rounds: qty });
const custom = z.strictObject({
  custom: id.describe("a name registered with registerWorldPredicate"),
  args: z.record(z.string(), z.unknown()).default({}),
});

export type WorldPredicate =
  | z.infer<typeof holds>
  | z.infer<typeof equipped>
  | z.infer<typeof crafted>
  | z.infer<typeof gathered>
  | z.infer<typeof killed>
  | z.infer<typeof visited>
  | z.infer<typeof delivered>
  | z.infer<typeof allAlive>
  | z.infer<typeof withinRounds>
  | z.infer<typeof custom>
  | { all: WorldPredicate[] }
  | { any: WorldPredicate[] }
  | { not: WorldPredicate };

type PredicateInput = z.input<typeof holds | typeof crafted | typeof gathered | typeof killed> | object;

/** A predicate over the final state and the event log; exactly one key names its kind. */
export const predicateSchema: z.ZodType<WorldPredicate, PredicateInput> = z.lazy(() =>
  z.union([
    holds,
    equipped,
    crafted,
    gathered,
    killed,
    visited,
    delivered,
    allAlive,
    withinRounds,
    custom,
    z.strictObject({ all: z.array(predicateSchema).min(1) }),
    z.strictObject({ any: z.array(predicateSchema).min(1) }),
    z.strictObject({ not: predicateSchema }),
  ]),
);

const teamMember = z.strictObject({
  id,
  role: id,
  spawn: point.optional(),
  skills: z.partialRecord(z.enum(SKILLS), z.number().int().min(1).max(99)).optional(),
  inventory: z.array(z.strictObject({ item: id, qty })).default([]),
  equipment: z.partialRecord(z.enum(SLOTS), id).default({}),
  role_document: z.string().min(1).default("default").describe('"default" or the document text'),
  tools: z
    .array(id)
    .default([])
    .describe("tools beyond the role's: built-in ones or registered world tools (a plugin's)"),
  goal: z.string().min(1),
});

const toolCall = z.strictObject({
  tool: id.describe("a built-in world tool or a registered one"),
  args: z.record(z.string(), z.unknown()).default({}),
});

export const worldTaskSchema = z.strictObject({
  id: taskId,
  category: z.enum(WORLD_TASK_CATEGORIES),
  variant_of: taskId.nullable().default(null),
  // The engine's generator takes 32 bits: 2^32 + 3 would play seed 3's game.
  seed: z.number().int().min(0).max(4_294_967_295),
  max_rounds: z.number().int().min(1).max(10_000),
  team: z.array(teamMember).min(3).max(20),
  world: z
    .strictObject({
      mobs: z.array(z.strictObject({ id, mob: id, x: coord, y: coord })).default([]),
      depleted_nodes: z
        .array(
          z
            .strictObject({
              node: id.optional().describe("one harvest point id"),
              resource: id.optional().describe("every point of this kind (within `near`, if given)"),
              near: z.strictObject({ x: coord, y: coord, radius: z.number().int().min(0) }).optional(),
              until: z.number().int().min(1).default(1_000_000).describe("the tick it grows back"),
            })
            .refine(
              (d) => (d.node === undefined) !== (d.resource === undefined),
              "give exactly one of node and resource",
            ),
        )
        .default([]),
    })
    .default({ mobs: [], depleted_nodes: [] }),
  success: predicateSchema,
  checkpoints: z
    .array(z.strictObject({ id, predicate: predicateSchema, weight: z.number().positive().default(1) }))
    .default([]),
  params: z
    .strictObject({
      view_radius: z.number().int().min(1).max(64).optional().describe("rules.viewRadius (default 8)"),
      max_move_tiles: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .optional()
        .describe("rules.maxMoveTiles (default 30)"),
      regen_every_rounds: z
        .number()
        .int()
        .min(0)
        .max(1000)
        .optional()
        .describe("rules.regenEveryRounds (default 4; 0: no regeneration)"),
      respawn_rounds: z
        .number()
        .int()
        .min(0)
        .max(1000)
        .optional()
        .describe("rules.respawnRounds (default 3)"),
      mob_step_tiles: z
        .number()
        .int()
        .min(0)
        .max(16)
        .optional()
        .describe("rules.mobStepTiles (default 2; 0: mobs stand still)"),
      mob_leash: z.number().int().min(0).max(32).optional().describe("rules.mobLeash (default 10)"),
      no_comm: z
        .literal(true)
        .optional()
        .describe("rules.noComm: no chat, no transfers, teammates hidden (the no-comm modifier sets it)"),
      shared_plan: z
        .literal(true)
        .optional()
        .describe("rules.sharedPlan: chat only in round 0 (the shared-plan modifier sets it)"),
      merged: z
        .literal(true)
        .optional()
        .describe("the team plays as one agent, `merged` (the merged modifier sets it)"),
      solo_role: id
        .optional()
        .describe(
          "with merged: only the members of this role fill the one agent (skills, kit, task items, tools): `world check`'s single-role check",
        ),
    })
    .default({})
    .describe("engine rules that differ from the defaults"),
  reference: z
    .array(z.array(z.strictObject({ agent: id, call: toolCall })))
    .optional()
    .describe("the reference solution: one entry per round, each the calls in turn order"),
});

export type WorldTaskSpec = z.infer<typeof worldTaskSchema>;
export type WorldTaskMember = WorldTaskSpec["team"][number];

/** The published JSON Schema of the task file (docs/world-task.schema.json). */
export function worldTaskJsonSchema(): unknown {
  return z.toJSONSchema(worldTaskSchema, { io: "input", unrepresentable: "any" });
}
