import { UserError } from "../../../core/errors.js";
import type { Rng } from "../../../core/rng.js";
import type { TreeBuilder } from "./tree-builder.js";

/** A free opaque path like ".store/k7/m3x9q2ab4c" for a file moved out of sight. */
export function stashPath(b: TreeBuilder, rng: Rng, root = ".store"): string {
  return b.fresh(rng, (tok) => `${root}/${tok.slice(0, 2)}/${tok.slice(2)}`, 12);
}

/** Refuses an application without targets or with a target the parent does not hold. */
export function checkTargets(
  name: string,
  env: ReadonlyMap<string, Uint8Array>,
  targets: readonly string[],
): void {
  if (targets.length === 0) throw new UserError(`transform ${name}: needs at least one target`);
  const seen = new Set<string>();
  for (const t of targets) {
    if (!env.has(t))
      throw new UserError(`transform ${name}: target ${JSON.stringify(t)} is not in the environment`);
    if (seen.has(t)) throw new UserError(`transform ${name}: target ${JSON.stringify(t)} is listed twice`);
    seen.add(t);
  }
}

/** "`a`", "`a` and `b`", "`a`, `b` and `c`". */
export function codeList(items: readonly string[]): string {
  const q = items.map((i) => `\`${i}\``);
  if (q.length <= 1) return q.join("");
  return `${q.slice(0, -1).join(", ")} and ${q[q.length - 1]}`;
}
