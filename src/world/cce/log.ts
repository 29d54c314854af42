import type { JsonValue, Lot, WorldEvent } from "../model/types.js";

/** The parts of a lot the tracer reads (a final state's lots, or a hand-built log's). */
export type TracedLot = Pick<Lot, "id" | "item" | "origin" | "from" | "transfers" | "holder">;

/** One tool call of an agent: its `action` event and where it stands in the run. */
export interface ActionRecord {
  /** The action event's seq (effects of the call carry it as `action`). */
  seq: number;
  /** Index into the run's calls (the n-th action event is the n-th recorded call). */
  index: number;
  agent: string;
  tick: number;
  tool: string;
  args: JsonValue;
  ok: boolean;
}

/** An event log indexed for tracing: actions in order, each call's effects, and the lots. */
export interface RunLog {
  actions: ActionRecord[];
  bySeq: ReadonlyMap<number, ActionRecord>;
  /** Action seq → the effect events of that call (the action event itself left out). */
  effects: ReadonlyMap<number, WorldEvent[]>;
  /** Any event seq → the seq of the call it belongs to (absent for end-of-round events). */
  actionOf: ReadonlyMap<number, number>;
  lots: ReadonlyMap<number, TracedLot>;
  events: readonly WorldEvent[];
}

export function indexRun(events: readonly WorldEvent[], lots: Iterable<TracedLot>): RunLog {
  const actions: ActionRecord[] = [];
  const bySeq = new Map<number, ActionRecord>();
  const effects = new Map<number, WorldEvent[]>();
  const actionOf = new Map<number, number>();
  for (const e of events) {
    if (e.action !== null) actionOf.set(e.seq, e.action);
    if (e.type === "action" && e.agent !== null) {
      const d = e.data;
      const rec: ActionRecord = {
        seq: e.seq,
        index: actions.length,
        agent: e.agent,
        tick: e.tick,
        tool: typeof d.tool === "string" ? d.tool : "?",
        args: d.args ?? null,
        ok: d.ok === true,
      };
      actions.push(rec);
      bySeq.set(e.seq, rec);
    } else if (e.action !== null) {
      const list = effects.get(e.action) ?? [];
      list.push(e);
      effects.set(e.action, list);
    }
  }
  const lotMap = new Map<number, TracedLot>();
  for (const l of lots) lotMap.set(l.id, l);
  return { actions, bySeq, effects, actionOf, lots: lotMap, events };
}

/**
 * The calls that made a lot what it was by the end of call `upTo` (inclusive): the call that
 * produced it, its hand-overs up to then, and the same for every lot it was made or split from
 * (bounded by the call that made it). Later hand-overs are left out: they cannot have caused it.
 */
export function lotActions(log: RunLog, lotId: number, upTo: number, out: Set<number>, depth = 0): void {
  const lot = log.lots.get(lotId);
  if (lot === undefined || depth > 64) return;
  const made = lot.origin.event >= 0 ? log.actionOf.get(lot.origin.event) : undefined;
  if (made !== undefined && made <= upTo) out.add(made);
  for (const t of lot.transfers) {
    const a = log.actionOf.get(t.event);
    if (a !== undefined && a <= upTo) out.add(a);
  }
  const bound = made ?? upTo;
  for (const f of lot.from) lotActions(log, f.lot, bound, out, depth + 1);
}

/** Lot ids an effect event names: `lot`, `lots`, `consumed[].lot`. */
export function lotsNamed(e: WorldEvent): number[] {
  const out: number[] = [];
  const d = e.data;
  if (typeof d.lot === "number") out.push(d.lot);
  if (Array.isArray(d.lots)) for (const l of d.lots) if (typeof l === "number") out.push(l);
  if (Array.isArray(d.consumed))
    for (const c of d.consumed)
      if (typeof c === "object" && c !== null && !Array.isArray(c) && typeof c.lot === "number")
        out.push(c.lot);
  return out;
}

/**
 * Who held a lot just after call `upTo`: the last hand-over's receiver up to then, else the
 * first hand-over's giver, else its holder now (without the `agent:`/`equipped:` prefix), else
 * whoever made it. Used for things that are held, not used up (tools, keys).
 */
export function holderAfter(log: RunLog, lot: TracedLot, upTo: number): string | null {
  const made = lot.origin.event >= 0 ? log.actionOf.get(lot.origin.event) : undefined;
  if (made !== undefined && made > upTo) return null;
  let holder: string | null = null;
  for (const t of lot.transfers) {
    const a = log.actionOf.get(t.event);
    if (a !== undefined && a <= upTo) holder = t.to;
  }
  if (holder !== null) return holder;
  const first = lot.transfers[0];
  if (first !== undefined) return first.from;
  const m = /^(?:agent|equipped):(.+)$/.exec(lot.holder);
  return m?.[1] ?? lot.origin.by;
}
