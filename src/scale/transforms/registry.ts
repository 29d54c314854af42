import { UserError } from "../../core/errors.js";
import type { Transform } from "../types.js";
import { OPERATION_TRANSFORMS } from "./operation/index.js";
import { RELATION_TRANSFORMS } from "./relation/index.js";
import { RESOURCE_TRANSFORMS } from "./resource/index.js";

/**
 * Every transform by name. Parameters are typed per transform; the registry stores them with
 * their parameter type erased, and callers parse parameters
 * with the transform's own schema before applying it.
 */
const registry = new Map<string, Transform<unknown>>();

function add(t: Transform<unknown>): void {
  if (!/^[a-z][a-z0-9-]*$/.test(t.name)) {
    throw new UserError(`transform name ${JSON.stringify(t.name)} must be lowercase letters, digits and -`);
  }
  registry.set(t.name, t);
}

for (const t of [...RESOURCE_TRANSFORMS, ...RELATION_TRANSFORMS, ...OPERATION_TRANSFORMS]) add(t);

/** Adds (or replaces) a transform, e.g. from a plugin or a test. */
export function registerTransform<P>(t: Transform<P>): void {
  add(t as Transform<unknown>);
}

export function listTransforms(): Transform<unknown>[] {
  return [...registry.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The 6-transform ablation library (base64, gzip, split, move/rename, manifest, preparation step). */
export function basicTransforms(): Transform<unknown>[] {
  return listTransforms().filter((t) => t.basic);
}

export function getTransform(name: string): Transform<unknown> {
  const t = registry.get(name);
  if (t === undefined) {
    throw new UserError(`unknown transform "${name}" (known: ${[...registry.keys()].sort().join(", ")})`);
  }
  return t;
}
