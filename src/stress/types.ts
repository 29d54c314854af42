import { Rng } from "../core/rng.js";

/** One value in a record. Everything the stress helpers write and read back is one of these. */
export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

/** A file tree: relative POSIX path → bytes. */
export type FileTree = Record<string, Uint8Array>;

/**
 * Bad input to a stress helper. Kept local (not core/errors) because this module must load inside
 * the sandbox with nothing but node builtins, rng and canonical-json; `kind` matches core's UserError.
 */
export class StressError extends Error {
  readonly kind = "user" as const;
  constructor(message: string) {
    super(message);
    this.name = "StressError";
  }
}

/** Accept either a seed or a generator, so graders can pass whichever they hold. */
export function toRng(seedOrRng: Rng | number | string): Rng {
  return seedOrRng instanceof Rng ? seedOrRng : new Rng(seedOrRng);
}

/** A short lowercase hex token from the generator (for file and directory names). */
export function hexToken(rng: Rng, chars = 6): string {
  let s = "";
  while (s.length < chars) s += rng.nextU32().toString(16).padStart(8, "0");
  return s.slice(0, chars);
}

/** Choose `count` distinct indices from [0, n), returned ascending. */
export function sampleIndices(rng: Rng, n: number, count: number): number[] {
  const all = Array.from({ length: n }, (_, i) => i);
  return rng
    .shuffle(all)
    .slice(0, Math.max(0, Math.min(n, count)))
    .sort((a, b) => a - b);
}
