import { UserError } from "../../core/index.js";
import type { World } from "../build/world.js";
import type { RunFile } from "../engine/session.js";
import { TERRAIN } from "../model/tilemap.js";
import { Canvas, type Rgb } from "./canvas.js";

export interface RenderOptions {
  region?: { x: number; y: number; w: number; h: number };
  run?: RunFile;
  /** Pixels per tile; by default the region is scaled up to about 1,000 pixels across. */
  scale?: number;
}

const NODE_COLOURS: Record<string, Rgb> = {
  tree: [10, 70, 20],
  rock: [235, 235, 235],
  fishing_spot: [0, 220, 255],
  forage: [220, 60, 200],
};
/** Each agent's colour, by its place in the team (the viewer's replay uses the same ones). */
export const AGENT_COLOURS: readonly Rgb[] = [
  [255, 40, 40],
  [40, 120, 255],
  [255, 200, 0],
  [0, 200, 120],
  [200, 0, 255],
  [255, 120, 0],
];
const BLACK: Rgb = [0, 0, 0];
const MOB: Rgb = [230, 30, 30];
const BOSS: Rgb = [120, 0, 0];
const EVENT_COLOURS: Record<string, Rgb> = {
  crafted: [255, 255, 255],
  transferred: [0, 255, 255],
  killed: [200, 0, 0],
  equipped: [255, 215, 0],
  harvested: [120, 255, 120],
  portal: [180, 80, 255],
};

/** Draws the map (biomes, terrain, resources, NPCs, mobs) and, for a run, paths and key events. */
export function renderMap(world: World, opts: RenderOptions = {}): Buffer {
  const { map, pack } = world;
  const r = opts.region ?? { x: 0, y: 0, w: map.width, h: map.height };
  if (r.w < 1 || r.h < 1 || r.x < 0 || r.y < 0 || r.x + r.w > map.width || r.y + r.h > map.height) {
    throw new UserError(
      `region ${r.x},${r.y},${r.w},${r.h} is not inside the ${map.width} × ${map.height} map`,
    );
  }
  const scale = opts.scale ?? Math.max(1, Math.min(16, Math.floor(1024 / Math.max(r.w, r.h))));
  const c = new Canvas(r.x, r.y, r.w, r.h, scale);
  for (let y = r.y; y < r.y + r.h; y++) {
    for (let x = r.x; x < r.x + r.w; x++) {
      const i = y * map.width + x;
      const col = tileColour(pack.biomes[map.biome[i] ?? 0]?.color ?? [0, 0, 0], map.terrain[i] ?? 0);
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++) c.pixel((x - r.x) * scale + dx, (y - r.y) * scale + dy, col);
    }
  }
  const inside = (p: { x: number; y: number }): boolean =>
    p.x >= r.x && p.y >= r.y && p.x < r.x + r.w && p.y < r.y + r.h;
  const big = scale === 1 ? 2 : 1;
  for (const n of pack.nodes)
    if (inside(n))
      c.mark(n.x, n.y, NODE_COLOURS[world.resource.get(n.resource)?.kind ?? ""] ?? [0, 0, 0], big);
  for (const s of pack.spawns) {
    const boss = world.mob.get(s.mob)?.boss === true;
    if (inside(s)) c.mark(s.x, s.y, boss ? BOSS : MOB, boss ? 4 : big);
  }
  for (const s of pack.stations) if (inside(s)) c.mark(s.x, s.y, [255, 140, 0], 2);
  for (const p of pack.portals) if (inside(p)) c.mark(p.x, p.y, [150, 0, 220], 2);
  for (const n of pack.npcs) if (inside(n)) c.mark(n.x, n.y, [255, 255, 0], 2);
  if (opts.run !== undefined) drawRun(c, opts.run, world);
  return c.toBuffer();
}

function tileColour(biome: readonly [number, number, number], terrain: number): Rgb {
  if (terrain === TERRAIN.water) return [40, 90, 190];
  if (terrain === TERRAIN.rock) return [95, 90, 85];
  if (terrain === TERRAIN.wall) return [45, 40, 40];
  if (terrain === TERRAIN.road) return [170, 140, 95];
  if (terrain === TERRAIN.floor) return [205, 195, 175];
  return biome;
}

function drawRun(c: Canvas, run: RunFile, world: World): void {
  const colourOf = new Map<string, Rgb>(
    run.agents.map((a, i) => [a.id, AGENT_COLOURS[i % AGENT_COLOURS.length] ?? BLACK]),
  );
  const pos = (v: unknown): [number, number] | null =>
    Array.isArray(v) && typeof v[0] === "number" && typeof v[1] === "number" ? [v[0], v[1]] : null;
  const width = Math.max(1, Math.floor(c.scale / 3));
  for (const e of run.events) {
    const col = colourOf.get(e.agent ?? "") ?? BLACK;
    if (e.type === "moved" && Array.isArray(e.data.waypoints)) {
      const pts = world.paths.refine(e.data.waypoints.map(pos).filter((p) => p !== null));
      for (let k = 1; k < pts.length; k++) {
        const a = pts[k - 1];
        const b = pts[k];
        if (a !== undefined && b !== undefined) c.line(a[0], a[1], b[0], b[1], col, width);
      }
    }
  }
  // Key events on top, at the position the agent had after its move in the same action.
  const last = new Map<string, [number, number]>();
  for (const e of run.events) {
    const agent = e.agent ?? "";
    if (e.type === "moved") {
      const to = pos(e.data.to);
      if (to !== null) last.set(agent, to);
    }
    if (e.type === "portal") {
      const to = pos(e.data.to);
      if (to !== null) last.set(agent, to);
    }
    const colour = EVENT_COLOURS[e.type];
    const at = last.get(agent);
    if (colour !== undefined && at !== undefined) c.ring(at[0], at[1], colour, 1.6);
  }
}
