import type { Lot, LotOriginKind, WorldState } from "../model/types.js";

export interface LotTrace {
  lot: number;
  item: string;
  qty: number;
  origin: { event: number; kind: LotOriginKind; by: string | null };
  transfers: Lot["transfers"];
  /** The lots this one was made or split from, with the quantity of each that went in. */
  inputs: Array<{ qty: number; trace: LotTrace }>;
}

/** The full history tree of a lot, back to lots with no inputs (harvests, loot, purchases, starting kit). */
export function traceLot(state: WorldState, lotId: number, depth = 0): LotTrace {
  const lot = state.lots.get(lotId);
  if (lot === undefined) throw new RangeError(`no lot ${lotId}`);
  if (depth > 64) throw new RangeError("provenance deeper than 64 levels");
  return {
    lot: lot.id,
    item: lot.item,
    qty: lot.created,
    origin: lot.origin,
    transfers: lot.transfers,
    inputs: lot.from.map((f) => ({ qty: f.qty, trace: traceLot(state, f.lot, depth + 1) })),
  };
}

/** The root lots of a trace (those not made from anything), in order. */
export function traceRoots(trace: LotTrace): LotTrace[] {
  if (trace.inputs.length === 0) return [trace];
  return trace.inputs.flatMap((i) => traceRoots(i.trace));
}

/** Every event that contributed to a lot: its origin, hand-overs, and those of all its inputs. */
export function contributingEvents(trace: LotTrace): number[] {
  const out = new Set<number>();
  const walk = (t: LotTrace): void => {
    if (t.origin.event >= 0) out.add(t.origin.event);
    for (const tr of t.transfers) out.add(tr.event);
    for (const i of t.inputs) walk(i.trace);
  };
  walk(trace);
  return [...out].sort((a, b) => a - b);
}
