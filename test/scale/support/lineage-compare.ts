import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { LineageNode } from "../../../src/scale/lineage/store.js";

/** What a node decides, without its timings: equal for the same seed, whatever the run's timing. */
export function decided(n: LineageNode): unknown {
  return [n.id, n.parent, n.status, n.depth, n.branch, n.seed, n.attempts, n.plan, n.env_digest, n.checks];
}

/** Every file of a folder, by relative path, as base64 (to compare child folders byte for byte). */
export function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, `${rel}${e.name}/`);
      else out[`${rel}${e.name}`] = readFileSync(p).toString("base64");
    }
  };
  walk(dir, "");
  return out;
}
