import type { Tally } from "./books.js";
import type { Goal } from "./goals.js";
import { call, cheb, craft, gather, go, held, type Mind, obtain, type Step } from "./steps.js";

/** Rounds a fighter waits where it killed a monster for the next one to appear. */
const RESPAWN_WAIT = 6;

const n = (m: ReadonlyMap<string, number>, k: string): number => m.get(k) ?? 0;

/** The next step of one goal of this agent (`ready`: whether the fights before it are over). */
export function goalStep(m: Mind, g: Goal, t: Tally, ready: boolean): Step {
  const o = m.obs;
  switch (g.kind) {
    case "hold":
      // A merged team's hand-over: done once it has made (gathered or crafted) that much.
      if (g.made === true && n(t.gathered, g.item) + n(t.crafted, g.item) >= g.qty) return "done";
      return obtain(m, g.item, g.qty);
    case "craft": {
      const left = g.qty - n(t.crafted, g.item);
      const r = m.know.recipes.get(g.item);
      if (left <= 0) return "done";
      return r === undefined ? "blocked" : craft(m, r, Math.ceil(left / r.output.qty));
    }
    case "gather": {
      const left = g.qty - n(t.gathered, g.item);
      return left <= 0 ? "done" : gather(m, g.item, left);
    }
    case "equip":
      if (Object.values(o.equipment).includes(g.item)) return "done";
      return held(o, g.item) > 0 ? call("equip_item", { item: g.item }) : obtain(m, g.item, 1);
    case "deliver": {
      const left = g.qty - n(t.gave, `${g.item}>${g.to}`);
      if (left <= 0) return "done";
      const s = obtain(m, g.item, left);
      if (s !== "done") return s;
      if (o.nearby.some((x) => x.kind === "agent" && x.id === g.to))
        return call("transfer_items", { to: g.to, item: g.item, count: left });
      // Carrying it to the teammate waits until the agent's other goals need no more gathering.
      const walk = go(m, g.at);
      return { ...(walk === "done" || walk === "blocked" ? call("wait") : walk), later: true };
    }
    case "sell": {
      const left = g.qty - n(t.gave, `${g.item}>${g.npc}`);
      if (left <= 0) return "done";
      // Asked before the goods are ready, so the answer is there when they are.
      const at = m.npcAt(g.npc);
      const s = obtain(m, g.item, left);
      if (s !== "done") return s;
      if (at === undefined) return "blocked";
      const walk = go(m, at, m.view.viewRadius);
      return walk !== "done"
        ? walk
        : call("trade_npc", { npc: g.npc, action: "sell", item: g.item, count: left });
    }
    case "kill":
      return kill(m, g, t, ready);
    case "visit": {
      const { x, y, w, h } = g.region;
      const p = o.position;
      const key = `${x},${y},${w},${h}`;
      if (p.x >= x && p.x < x + w && p.y >= y && p.y < y + h) t.visited.add(key);
      if (t.visited.has(key)) return "done";
      return go(m, { x: x + Math.floor(w / 2), y: y + Math.floor(h / 2) });
    }
  }
}

/**
 * A fight goal: wait until the fights listed before it are over, eat when low, attack a target
 * in view, or walk to the next place it may stand (a placed monster's post, a kind's spawn points).
 */
function kill(m: Mind, g: Goal & { kind: "kill" }, t: Tally, ready: boolean): Step {
  const done = t.kills.filter((k) => k.id === g.mob || k.kind === g.mob).length;
  if (done >= g.qty) return "done";
  if (!ready) return "blocked";
  const o = m.obs;
  if (o.hp.current * 2 < o.hp.max) {
    const food = o.inventory.find((s) => (m.view.world.item.get(s.item)?.heal ?? 0) > 0);
    if (food !== undefined) return call("use_item", { item: food.item });
  }
  const ids = m.spawnIds(g.mob);
  const target = o.nearby.find((x) => x.kind === "mob" && ids.has(x.id));
  if (target !== undefined) return call("attack_entity", { target: target.id });
  // A killed monster comes back at its spawn point after a few rounds: wait there a while.
  const last = t.kills.at(-1);
  if (last !== undefined && o.tick - last.tick <= RESPAWN_WAIT && ids.has(last.id))
    return go(m, last.at) === "done" ? call("wait") : go(m, last.at);
  const posts = m.postsOf(g.mob);
  const next = posts.find((p) => cheb(p, o.position) > 2);
  return next === undefined ? call("wait") : go(m, next);
}
