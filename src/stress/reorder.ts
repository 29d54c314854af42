import type { Rng } from "../core/rng.js";
import type { FileTree } from "./types.js";

/** `order[i]` is the input index of output item i. */
export function shuffleWithOrder<T>(rng: Rng, items: readonly T[]): { items: T[]; order: number[] } {
  const order = rng.shuffle(items.map((_, i) => i));
  return { items: order.map((i) => items[i] as T), order };
}

/** Undo `shuffleWithOrder` given its order. */
export function unshuffle<T>(items: readonly T[], order: readonly number[]): T[] {
  const out = new Array<T>(items.length);
  order.forEach((from, i) => {
    out[from] = items[i] as T;
  });
  return out;
}

/** Same keys and values per record, in a seed-chosen key order. */
export function shuffleKeys<T extends Record<string, unknown>>(rng: Rng, rows: readonly T[]): T[] {
  return rows.map((r) => Object.fromEntries(rng.shuffle(Object.entries(r))) as T);
}

/** The same tree with its entries inserted in a seed-chosen order (listing order is all that changes). */
export function shuffleFiles(rng: Rng, files: FileTree): FileTree {
  return Object.fromEntries(rng.shuffle(Object.entries(files)));
}
