import { staticNear, type World } from "../build/world.js";
import { DEFAULT_RULES } from "../model/rules.js";
import type { Slot } from "../model/schema.js";
import { TERRAIN_NAMES, type TileMap } from "../model/tilemap.js";
import type { AgentState, Message, ToolResult, WorldState } from "../model/types.js";
import { INVENTORY_SLOTS } from "../model/types.js";
import { unknownAgent } from "./init.js";
import type { TeamView } from "./team-view.js";

/** The default view radius (`DEFAULT_RULES.viewRadius`); a run's own is `state.rules.viewRadius`. */
export const VIEW_RADIUS = DEFAULT_RULES.viewRadius;
export const MAX_NEARBY = 40;

/** Nearest first (ties by id), at most MAX_NEARBY; bucketed by distance so crowds cost O(n). */
function closest(things: NearbyThing[], radius: number): NearbyThing[] {
  const buckets: NearbyThing[][] = Array.from({ length: radius + 1 }, () => []);
  for (const t of things) buckets[Math.min(radius, t.distance)]?.push(t);
  const out: NearbyThing[] = [];
  for (const b of buckets) {
    if (out.length >= MAX_NEARBY) break;
    if (b.length > MAX_NEARBY) b.length = Math.max(MAX_NEARBY, 0); // a crowd at one distance: keep scan order
    b.sort((a, c) => (a.id < c.id ? -1 : a.id > c.id ? 1 : 0));
    for (const t of b) if (out.length < MAX_NEARBY) out.push(t);
  }
  return out;
}
const TERRAIN_CODES = [...".~#=_#"].map((c) => c.charCodeAt(0));
const rowCache = new WeakMap<TileMap, string[]>();

/** The whole map as one string per row, built once per map (observations slice it). */
function terrainRows(map: TileMap): string[] {
  const hit = rowCache.get(map);
  if (hit !== undefined) return hit;
  const rows: string[] = [];
  const codes = new Array<number>(map.width);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) codes[x] = TERRAIN_CODES[map.terrain[y * map.width + x] ?? 2] ?? 35;
    rows.push(String.fromCharCode(...codes));
  }
  rowCache.set(map, rows);
  return rows;
}

export interface NearbyThing {
  kind: "resource" | "mob" | "npc" | "station" | "portal" | "agent" | "ground_item";
  id: string;
  name: string;
  x: number;
  y: number;
  distance: number;
  detail: string;
}

/** What one agent sees on its turn: itself, its surroundings, its messages, its last result. */
export interface Observation {
  agent: string;
  role: string;
  tick: number;
  position: { x: number; y: number; biome: string; terrain: string };
  hp: { current: number; max: number };
  skills: Record<string, number>;
  inventory: Array<{ item: string; qty: number }>;
  slots: { used: number; capacity: number };
  equipment: Partial<Record<Slot, string>>;
  /** The closest MAX_NEARBY things within VIEW_RADIUS, nearest first. */
  nearby: NearbyThing[];
  /** How many more things are in view but not listed (crowds). */
  nearbyOmitted: number;
  /** Rows of the map around the agent (`@` is the agent): . grass ~ water # rock = road _ floor. */
  terrain: string[];
  messages: Message[];
  lastResult: ToolResult | null;
  /**
   * Every teammate's state and the team's latest chat, wherever they are. Never set by the
   * engine: only the oracle-comm modifier adds it (one coordinator sees everything).
   */
  teamView?: TeamView;
}

/** Builds an agent's observation; pure, and sees nothing beyond VIEW_RADIUS except its messages. */
export function observe(world: World, state: WorldState, agentId: string): Observation {
  const idx = state.agentIndex[agentId];
  const me = idx === undefined ? undefined : state.agents.get(idx);
  if (me === undefined) throw unknownAgent(state, agentId);
  const { map, pack } = world;
  const r = state.rules.viewRadius;
  const dist = (x: number, y: number): number => Math.max(Math.abs(x - me.x), Math.abs(y - me.y));
  const nearby: NearbyThing[] = [];
  // Mobs may stand up to `mobLeash` tiles from their spawn point, so look that much further.
  for (const e of staticNear(world, me.x, me.y, r + state.rules.mobLeash)) {
    if (e.kind === "node") {
      const n = pack.nodes[e.index];
      const res = n === undefined ? undefined : world.resource.get(n.resource);
      if (n === undefined || res === undefined || dist(n.x, n.y) > r) continue;
      const ready = (state.nodes.get(e.index) ?? 0) <= state.tick;
      const detail = `${res.skill} ${res.level}${res.tool === undefined ? "" : `, needs ${res.tool}`}${ready ? "" : ", depleted"}`;
      nearby.push({
        kind: "resource",
        id: n.id,
        name: res.name,
        x: n.x,
        y: n.y,
        distance: dist(n.x, n.y),
        detail,
      });
    } else if (e.kind === "mob") {
      const s = pack.spawns[e.index];
      const m = state.mobs.get(e.index);
      const def = s === undefined ? undefined : world.mob.get(s.mob);
      if (s === undefined || m === undefined || def === undefined) continue;
      if (m.respawnAt >= 0 && m.respawnAt > state.tick) continue;
      if (dist(m.x, m.y) > r) continue;
      const hp = m.respawnAt >= 0 ? def.hp : m.hp;
      const detail = `level ${def.level}, hp ${hp}/${def.hp}${def.aggressive ? ", aggressive" : ""}${def.boss ? ", boss" : ""}`;
      nearby.push({
        kind: "mob",
        id: s.id,
        name: def.name,
        x: m.x,
        y: m.y,
        distance: dist(m.x, m.y),
        detail,
      });
    } else if (e.kind === "npc") {
      const n = pack.npcs[e.index];
      if (n !== undefined && dist(n.x, n.y) <= r)
        nearby.push({
          kind: "npc",
          id: n.id,
          name: n.name,
          x: n.x,
          y: n.y,
          distance: dist(n.x, n.y),
          detail: n.role,
        });
    } else if (e.kind === "station") {
      const s = pack.stations[e.index];
      if (s !== undefined && dist(s.x, s.y) <= r)
        nearby.push({
          kind: "station",
          id: s.id,
          name: s.kind,
          x: s.x,
          y: s.y,
          distance: dist(s.x, s.y),
          detail: s.kind,
        });
    } else {
      const p = pack.portals[e.index];
      if (p === undefined || dist(p.x, p.y) > r) continue;
      const detail = `${p.kind}${p.requiresItem === undefined ? "" : `, needs ${p.requiresItem}`}`;
      nearby.push({
        kind: "portal",
        id: p.id,
        name: p.name,
        x: p.x,
        y: p.y,
        distance: dist(p.x, p.y),
        detail,
      });
    }
  }
  for (let i = 0; i < state.agents.length; i++) {
    const a = state.agents.get(i);
    if (a === undefined || a.id === me.id || Math.abs(a.x - me.x) > r || Math.abs(a.y - me.y) > r) continue;
    // Without communication an agent does not see its teammates either.
    if (state.rules.noComm === true && a.team === me.team) continue;
    nearby.push({
      kind: "agent",
      id: a.id,
      name: a.id,
      x: a.x,
      y: a.y,
      distance: dist(a.x, a.y),
      detail: a.role,
    });
  }
  state.ground.forEach((g) => {
    if (g === null || dist(g.x, g.y) > r) return;
    const lot = state.lots.get(g.lot);
    if (lot !== undefined)
      nearby.push({
        kind: "ground_item",
        id: g.id,
        name: lot.item,
        x: g.x,
        y: g.y,
        distance: dist(g.x, g.y),
        detail: `x${lot.qty}`,
      });
  });
  const shown = closest(nearby, r);
  const rows = terrainRows(map);
  const terrain: string[] = [];
  for (let y = me.y - r; y <= me.y + r; y++) {
    const line = rows[y];
    if (line === undefined) {
      terrain.push(" ".repeat(2 * r + 1));
      continue;
    }
    const left = " ".repeat(Math.max(0, r - me.x));
    const right = " ".repeat(Math.max(0, me.x + r + 1 - map.width));
    let row = left + line.slice(Math.max(0, me.x - r), Math.min(map.width, me.x + r + 1)) + right;
    if (y === me.y) row = `${row.slice(0, r)}@${row.slice(r + 1)}`;
    terrain.push(row);
  }
  const at = me.y * map.width + me.x;
  return {
    agent: me.id,
    role: me.role,
    tick: state.tick,
    position: {
      x: me.x,
      y: me.y,
      biome: pack.biomes[map.biome[at] ?? 0]?.id ?? "?",
      terrain: TERRAIN_NAMES[map.terrain[at] ?? 0] ?? "?",
    },
    hp: { current: me.hp, max: me.maxHp },
    skills: Object.fromEntries(Object.entries(me.skills).map(([k, v]) => [k, v.level])),
    ...inventoryView(world, state, me),
    nearby: shown,
    nearbyOmitted: nearby.length - shown.length,
    terrain,
    messages: unread(state, me),
    lastResult: me.lastResult,
  };
}

export const MAX_MESSAGES_SHOWN = 40;

/** Team messages addressed to this agent since its last turn (the latest MAX_MESSAGES_SHOWN). */
function unread(state: WorldState, me: AgentState): Message[] {
  const out: Message[] = [];
  for (let i = state.messages.length - 1; i >= me.readUpTo && out.length < MAX_MESSAGES_SHOWN; i--) {
    const m = state.messages.get(i);
    if (m !== undefined && m.team === me.team && m.from !== me.id && (m.to === null || m.to === me.id))
      out.push(m);
  }
  return out.reverse();
}

function inventoryView(
  world: World,
  state: WorldState,
  me: AgentState,
): Pick<Observation, "inventory" | "slots" | "equipment"> {
  const totals = new Map<string, number>();
  for (const id of me.inventory) {
    const lot = state.lots.get(id);
    if (lot !== undefined) totals.set(lot.item, (totals.get(lot.item) ?? 0) + lot.qty);
  }
  let used = 0;
  for (const [item, qty] of totals) used += Math.ceil(qty / (world.item.get(item)?.stackSize ?? 1));
  const equipment: Partial<Record<Slot, string>> = {};
  for (const [slot, lotId] of Object.entries(me.equipment))
    equipment[slot as Slot] = state.lots.get(lotId)?.item ?? "?";
  return {
    inventory: [...totals].map(([item, qty]) => ({ item, qty })),
    slots: { used, capacity: INVENTORY_SLOTS },
    equipment,
  };
}
