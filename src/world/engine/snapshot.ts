import { z } from "zod";
import { canonicalJson, sha256 } from "../../core/index.js";
import { PVec } from "../model/pvec.js";
import { rulesSchema } from "../model/rules.js";
import type { AgentState, GroundItem, Lot, Message, MobState, WorldState } from "../model/types.js";

/** The state as plain JSON data (persistent vectors become arrays). */
export function stateToJson(state: WorldState): Record<string, unknown> {
  return {
    ...state,
    agents: state.agents.toArray(),
    nodes: state.nodes.toArray(),
    mobs: state.mobs.toArray(),
    lots: state.lots.toArray(),
    ground: state.ground.toArray(),
    messages: state.messages.toArray(),
  };
}

/** A stable digest of the full state: equal states give equal digests in any process. */
export function stateDigest(state: WorldState): string {
  return sha256(canonicalJson(stateToJson(state)));
}

export function snapshot(state: WorldState): string {
  return canonicalJson(stateToJson(state));
}

const snapshotSchema = z.object({
  version: z.literal(2),
  seed: z.number().int(),
  tick: z.number().int(),
  seq: z.number().int(),
  rng: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  agents: z.array(z.record(z.string(), z.unknown())),
  agentIndex: z.record(z.string(), z.number().int()),
  nodes: z.array(z.number().int()),
  mobs: z.array(
    z.object({ hp: z.number().int(), respawnAt: z.number().int(), x: z.number().int(), y: z.number().int() }),
  ),
  lots: z.array(z.record(z.string(), z.unknown())),
  ground: z.array(
    z.object({ id: z.string(), lot: z.number().int(), x: z.number().int(), y: z.number().int() }).nullable(),
  ),
  messages: z.array(
    z.object({
      from: z.string(),
      team: z.string(),
      to: z.string().nullable(),
      text: z.string(),
      tick: z.number().int(),
    }),
  ),
  rules: rulesSchema,
  economy: z
    .object({
      stock: z.record(z.string(), z.number().int()),
      quests: z.record(z.string(), z.number().int()),
      banks: z.record(z.string(), z.array(z.number().int())),
    })
    .optional(),
});

/** Restores a snapshot; the engine's own output is trusted for the nested agent and lot records. */
export function restore(text: string): WorldState {
  const { economy, ...raw } = snapshotSchema.parse(JSON.parse(text));
  return {
    ...raw,
    ...(economy === undefined ? {} : { economy }),
    agents: PVec.from(raw.agents as unknown as AgentState[]),
    nodes: PVec.from(raw.nodes),
    mobs: PVec.from<MobState>(raw.mobs),
    lots: PVec.from(raw.lots as unknown as Lot[]),
    ground: PVec.from<GroundItem | null>(raw.ground),
    messages: PVec.from<Message>(raw.messages),
  };
}
