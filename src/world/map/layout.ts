import type { LandmarkDef } from "../model/schema.js";

/** Towns that have a locked vault building (a door needing `<town>_key`). */
export const VAULT_TOWNS = ["greenvale", "stonegate", "cinderkeep"] as const;

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A 7 × 7 building (two-tile walls, 3 × 3 inside) east of the plaza; the door is in its west wall. */
export function vaultBuilding(town: LandmarkDef): {
  rect: Rect;
  outside: [number, number];
  inside: [number, number];
} {
  const x0 = town.x + town.radius + 2;
  const rect = { x0, y0: town.y - 3, x1: x0 + 6, y1: town.y + 3 };
  return { rect, outside: [x0 - 1, town.y], inside: [x0 + 3, town.y] };
}

/** The dungeon is a walled square around its landmark, reachable only through a portal. */
export function dungeonRect(d: LandmarkDef): Rect {
  return { x0: d.x - d.radius, y0: d.y - d.radius, x1: d.x + d.radius, y1: Math.min(d.y + d.radius, 765) };
}

/**
 * Fixed spots on a ring inside a town's plaza, so NPCs, stations and portals never overlap.
 * 24 slots on two rings.
 */
export function plazaSlot(town: LandmarkDef, k: number): [number, number] {
  const ring = k < 16 ? town.radius - 3 : town.radius - 7;
  const n = k < 16 ? 16 : 8;
  const a = ((k % n) / n) * 2 * Math.PI + (k < 16 ? 0 : 0.2);
  return [Math.round(town.x + ring * Math.cos(a)), Math.round(town.y + ring * Math.sin(a))];
}
