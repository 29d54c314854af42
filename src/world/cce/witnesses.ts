import type { WorldEvent } from "../model/types.js";
import { isMerged, runAgentId, runAgentIds } from "../task/merge.js";
import { evalPredicate, type PredicateContext } from "../task/predicates.js";
import type { WorldPredicate } from "../task/schema.js";
import type { RunLog } from "./log.js";

/** One leaf of the success condition that holds, and the calls that directly made it true. */
export interface Witness {
  /** The leaf's kind and subject ("holds bronze_arrow", "killed east_warden"). */
  leaf: string;
  /** Action seqs, ascending. */
  actions: number[];
}

/**
 * The success witnesses of a run: for each leaf of the success predicate that holds (every child
 * of a holding `all`; the first holding child of an `any`; nothing under `not`), the calls that
 * directly made its final fact true. Counted facts (crafted, gathered, killed, delivered) take the
 * earliest events until the quantity is reached; `holds` takes the oldest held lots until the
 * quantity is covered, with the calls that produced and handed over each. Facts of absence
 * (`all_alive`, `within_rounds`) and custom predicates have no witness calls.
 */
export function successWitnesses(p: WorldPredicate, ctx: PredicateContext, log: RunLog): Witness[] {
  if (!evalPredicate(p, ctx).holds) return [];
  if ("all" in p) return p.all.flatMap((q) => successWitnesses(q, ctx, log));
  if ("any" in p) {
    const first = p.any.find((q) => evalPredicate(q, ctx).holds);
    return first === undefined ? [] : successWitnesses(first, ctx, log);
  }
  if ("not" in p || "all_alive" in p || "within_rounds" in p || "custom" in p) return [];
  const ids = (agent: string | undefined): string[] =>
    agent === undefined ? runAgentIds(ctx.spec) : [runAgentId(ctx.spec, agent)];
  const by = (agent: string | undefined) => {
    const who = new Set(ids(agent));
    return (e: WorldEvent): boolean => e.agent !== null && who.has(e.agent);
  };
  const num = (v: unknown): number => (typeof v === "number" ? v : 0);
  if ("holds" in p) {
    const { item, qty, agent } = p.holds;
    const holders = new Set(ids(agent).flatMap((a) => [`agent:${a}`, `equipped:${a}`]));
    const out = new Set<number>();
    let have = 0;
    ctx.state.lots.forEach((lot) => {
      if (have >= qty || lot.item !== item || lot.qty === 0 || !holders.has(lot.holder)) return;
      have += lot.qty;
      const made = log.actionOf.get(lot.origin.event);
      if (made !== undefined) out.add(made);
      for (const t of lot.transfers) {
        const a = log.actionOf.get(t.event);
        if (a !== undefined) out.add(a);
      }
    });
    return [{ leaf: `holds ${item}`, actions: sorted(out) }];
  }
  if ("equipped" in p) {
    const { item, agent } = p.equipped;
    for (const id of ids(agent)) {
      const a = ctx.state.agents.get(ctx.state.agentIndex[id] ?? -1);
      const lot = Object.values(a?.equipment ?? {}).find((l) => ctx.state.lots.get(l)?.item === item);
      if (lot === undefined) continue;
      const equip = [...log.events]
        .reverse()
        .find((e) => e.type === "equipped" && e.agent === id && e.data.lot === lot);
      const act = equip?.action ?? null;
      return [{ leaf: `equipped ${item}`, actions: act === null ? [] : [act] }];
    }
    return [];
  }
  if ("crafted" in p) {
    const { item, qty, agent } = p.crafted;
    return [
      counted(`crafted ${item}`, log, qty, (e) =>
        e.type === "crafted" && by(agent)(e) && e.data.item === item ? num(e.data.qty) : 0,
      ),
    ];
  }
  if ("gathered" in p) {
    const { item, qty, agent } = p.gathered;
    return [
      counted(`gathered ${item}`, log, qty, (e) =>
        e.type === "harvested" && by(agent)(e) && e.data.item === item ? num(e.data.qty) : 0,
      ),
    ];
  }
  if ("killed" in p) {
    const { mob, qty, agent } = p.killed;
    return [
      counted(`killed ${mob}`, log, qty, (e) =>
        e.type === "killed" && by(agent)(e) && (e.data.kind === mob || e.data.mob === mob) ? 1 : 0,
      ),
    ];
  }
  if ("delivered" in p) {
    const { item, qty, to, npc, from } = p.delivered;
    const f = by(from);
    const amount = (e: WorldEvent): number => {
      if (!f(e)) return 0;
      if (to !== undefined && isMerged(ctx.spec))
        return (e.type === "harvested" || e.type === "crafted") && e.data.item === item ? num(e.data.qty) : 0;
      if (to !== undefined)
        return e.type === "transferred" && e.data.to === to && e.data.item === item ? num(e.data.qty) : 0;
      const gave = e.data.gave;
      if (
        e.type !== "traded" ||
        e.data.npc !== npc ||
        typeof gave !== "object" ||
        gave === null ||
        Array.isArray(gave)
      )
        return 0;
      return gave.item === item ? num(gave.qty) : 0;
    };
    return [counted(`delivered ${item}`, log, qty, amount)];
  }
  const { x, y, w, h } = p.visited.region;
  const inside = (pt: unknown): boolean =>
    Array.isArray(pt) &&
    typeof pt[0] === "number" &&
    typeof pt[1] === "number" &&
    pt[0] >= x &&
    pt[0] < x + w &&
    pt[1] >= y &&
    pt[1] < y + h;
  const f = by(p.visited.agent);
  const hit = log.events.find((e) => {
    if (!f(e) || e.action === null) return false;
    if (e.type === "moved")
      return [e.data.to, ...(Array.isArray(e.data.waypoints) ? e.data.waypoints : [])].some(inside);
    return e.type === "portal" && inside(e.data.to);
  });
  return [{ leaf: `visited (${x},${y} ${w}×${h})`, actions: hit?.action == null ? [] : [hit.action] }];
}

/** The earliest events whose amounts add up to `qty`, as the calls they belong to. */
function counted(leaf: string, log: RunLog, qty: number, amount: (e: WorldEvent) => number): Witness {
  const out = new Set<number>();
  let n = 0;
  for (const e of log.events) {
    if (n >= qty) break;
    const k = amount(e);
    if (k <= 0 || e.action === null) continue;
    n += k;
    out.add(e.action);
  }
  return { leaf, actions: sorted(out) };
}

function sorted(s: Iterable<number>): number[] {
  return [...s].sort((a, b) => a - b);
}
