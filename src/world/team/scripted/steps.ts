import type { Observation } from "../../engine/observe.js";
import type { RecipeDef } from "../../model/schema.js";
import type { ToolCall } from "../../model/tool-args.js";
import type { TeamTaskView } from "../task-view.js";
import type { Knowledge, Point } from "./knowledge.js";

/** What a goal asks of its agent this turn: a call, nothing more (done), or to wait for others. */
export type Step = { call: ToolCall; later?: true } | "done" | "blocked";

/** The part of an agent's mind the steps read (and the two requests they may make). */
export interface Mind {
  id: string;
  know: Knowledge;
  view: TeamTaskView;
  obs: Observation;
  goal: string;
  /** Where the agent started: where it waits for hand-overs. */
  home: Point;
  /** Node index → tick until which the agent believes it depleted (it saw it so). */
  depleted: ReadonlyMap<number, number>;
  /** Shops that turned down a purchase (`npc/item`). */
  refused: ReadonlySet<string>;
  /** Whether a teammate is to bring the item (a hand-over to this agent is planned). */
  inbound(item: string): boolean;
  /** Asks the team for an item; returns the tick it was first asked for and whether someone took it. */
  need(item: string, qty: number): { since: number; taken: boolean };
  /** Where an NPC stands, if the agent knows (or was told, or a tool said); asks the team otherwise. */
  npcAt(npc: string, ask?: boolean): Point | undefined;
  /** Spawn ids a kill goal's target may stand for (the id itself, or every spawn of a kind). */
  spawnIds(mob: string): ReadonlySet<string>;
  /** Places to look for it, nearest to the agent's start first. */
  postsOf(mob: string): readonly Point[];
}

export const call = (tool: ToolCall["tool"], args: Record<string, unknown> = {}): { call: ToolCall } => ({
  call: { tool, args },
});

export const cheb = (a: Point, b: Point): number => Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));

export function held(o: Observation, item: string): number {
  return o.inventory.find((s) => s.item === item)?.qty ?? 0;
}

/** Walks toward `p` (bounded moves: the tool walks at most its per-call limit) until within `near`. */
export function go(m: Mind, p: Point, near = 0): Step {
  return cheb(m.obs.position, p) <= near ? "done" : call("move_to", { x: p.x, y: p.y });
}

/** Makes sure the agent holds `qty` of `item`: craft, gather, buy, or ask a teammate. */
export function obtain(m: Mind, item: string, qty: number): Step {
  const have = held(m.obs, item);
  if (have >= qty) return "done";
  if (m.inbound(item)) return "blocked";
  const recipe = m.know.recipes.get(item);
  if (recipe !== undefined && (m.obs.skills[recipe.skill] ?? 0) >= recipe.level)
    return craft(m, recipe, Math.ceil((qty - have) / recipe.output.qty));
  const source = m.know.resources.get(item);
  if (source !== undefined && (m.obs.skills[source.res.skill] ?? 0) >= source.res.level)
    return gather(m, item, qty - have);
  return buy(m, item, qty - have);
}

/** Crafts `batches` of a recipe: its inputs first, then at the nearest known station. */
export function craft(m: Mind, r: RecipeDef, batches: number): Step {
  let blocked = false;
  let first: Step | null = null;
  for (const input of r.inputs) {
    const s = obtain(m, input.item, input.qty * batches);
    if (s === "blocked") blocked = true;
    else if (s !== "done") first ??= s;
  }
  if (first !== null) return first;
  if (blocked) return "blocked";
  if (r.station !== undefined) {
    const at = [...(m.know.stations.get(r.station) ?? [])].sort(
      (a, b) => cheb(a, m.obs.position) - cheb(b, m.obs.position),
    )[0];
    // The tool walks to the station itself, but only within one call's walk.
    if (at !== undefined) {
      const s = go(m, at, m.view.viewRadius);
      if (s !== "done") return s;
    }
  }
  return call("craft_item", { item: r.output.item, count: batches, skill: r.skill });
}

/** Harvests `count` of an item at the nearest point not known to be depleted. */
export function gather(m: Mind, item: string, count: number): Step {
  const source = m.know.resources.get(item);
  if (source === undefined) return "blocked";
  const me = m.obs.position;
  const ready = m.obs.nearby.some(
    (t) => t.kind === "resource" && t.name === source.res.name && !t.detail.includes("depleted"),
  );
  if (ready) return call("harvest_resource", { target: source.res.id, count: Math.min(10, count) });
  const tick = m.obs.tick;
  // Gathered goods go back toward where the agent started (hand-overs, stations): the best point
  // is the shortest way there and back, not merely the nearest.
  // Straight lines first, then real walks (rivers and cliffs) for the few best.
  const home = m.home;
  const line = (p: Point): number => cheb(p, me) + cheb(p, home);
  const paths = m.view.world.paths;
  const walk = (a: Point, b: Point): number =>
    paths.find(a.x, a.y, b.x, b.y)?.cost ?? Number.POSITIVE_INFINITY;
  const next = source.nodes
    .filter((n) => (m.depleted.get(n.index) ?? -1) < tick)
    .sort((a, b) => line(a) - line(b) || a.index - b.index)
    .slice(0, 6)
    .map((n) => ({ n, cost: walk(me, n) + walk(n, home) }))
    .sort((a, b) => a.cost - b.cost || a.n.index - b.n.index)[0]?.n;
  if (next === undefined) return call("wait");
  return cheb(next, me) <= m.view.viewRadius ? call("wait") : go(m, next);
}

/**
 * Buys from a shop the document names; with none, asks the team, and when nobody has taken the
 * request a round later, tries the shops in view (one named in the agent's goal first).
 */
export function buy(m: Mind, item: string, qty: number): Step {
  const known = (m.know.shops.get(item) ?? []).filter((n) => !m.refused.has(`${n}/${item}`));
  const shop = known
    .map((id) => ({ id, at: m.know.npcs.get(id) ?? { x: 0, y: 0 } }))
    .sort((a, b) => cheb(a.at, m.obs.position) - cheb(b.at, m.obs.position))[0];
  if (shop !== undefined) {
    const s = go(m, shop.at, m.view.viewRadius);
    return s !== "done" ? s : call("trade_npc", { npc: shop.id, action: "buy", item, count: qty });
  }
  const asked = m.need(item, qty);
  if (asked.taken || m.obs.tick <= asked.since) return "blocked";
  // Shops the goal names ("the Greenvale cook" → greenvale_cook) first, then shops in view.
  const words = m.goal.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const named = words
    .slice(1)
    .map((w, i) => `${words[i]}_${w}`)
    .filter((id) => m.view.world.npc.has(id));
  const seen = m.obs.nearby.filter((t) => t.kind === "npc" && t.detail === "shopkeeper").map((t) => t.id);
  const pick = [...named, ...seen].find((id) => !m.refused.has(`${id}/${item}`));
  if (pick === undefined) return "blocked";
  const at = m.npcAt(pick, false);
  const s = at === undefined ? "done" : go(m, at, m.view.viewRadius);
  return s !== "done" ? s : call("trade_npc", { npc: pick, action: "buy", item, count: qty });
}
