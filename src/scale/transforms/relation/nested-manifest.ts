import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { RestoreStep, Transform } from "../../types.js";
import { mkdirFor, pathArg, sq } from "../shared/shell.js";
import { checkTargets, codeList, stashPath } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({ levels: z.number().int().min(2).max(3) }).strict();
export type NestedManifestParams = z.infer<typeof Params>;

/** Follows `entries[name].manifest` links until an entry has a `location`, then copies that file. */
const FOLLOW_PY = `import json, shutil, sys
manifest, name, out = sys.argv[1:4]
for _ in range(32):
    entry = json.load(open(manifest, encoding="utf-8"))["entries"][name]
    if "location" in entry:
        shutil.copyfile(entry["location"], out)
        break
    manifest = entry["manifest"]
else:
    sys.exit("manifest chain for %s is too long" % name)`;

function json(v: unknown): Uint8Array {
  return utf8.encode(`${JSON.stringify(v, null, 2)}\n`);
}

/**
 * A manifest of manifests: the root index maps each logical path to a sub-manifest, which maps
 * it to a further one, down `levels` levels, and the last gives the file's opaque location.
 */
export const nestedManifestTransform: Transform<NestedManifestParams> = {
  name: "nested-manifest",
  kind: "relation",
  basic: false,
  summary: "move files to opaque paths behind a manifest of manifests (2-3 levels)",
  restoreDoc:
    "Start at the root index; each manifest's `entries[<path>]` holds either `manifest` (the next manifest " +
    "to read) or `location` (where the file is). Follow the links and copy the location back to the path.",
  params: Params,
  arity: "one",
  accepts: () => true,
  defaultParams: (seed) => ({ levels: new Rng(seed).int(2, 3) }),
  apply({ env, targets, params, seed }) {
    checkTargets("nested-manifest", env, targets);
    const rng = new Rng(`nested-manifest/${seed}`);
    const b = new TreeBuilder(env);
    const moved = targets.map((t) => [t, b.take(t)] as const);
    const root = b.firstFree(rng, ["index.json", "catalog/index.json"]);
    b.put(root, new Uint8Array());
    const rootEntries: Record<string, unknown> = {};
    const produced: string[] = [root];
    for (const [t, bytes] of moved) {
      const loc = stashPath(b, rng);
      b.put(loc, bytes);
      // Build the chain bottom-up: the deepest manifest names the location.
      let next: Record<string, unknown> = { location: loc };
      for (let level = params.levels; level >= 2; level--) {
        const m = b.fresh(rng, (tok) => `.manifests/l${level}/${tok}.json`);
        b.put(m, json({ manifest_version: 1, level, entries: { [t]: next } }));
        produced.push(m);
        next = { manifest: m };
      }
      rootEntries[t] = next;
      produced.push(loc);
    }
    b.replace(root, json({ manifest_version: 1, level: 1, entries: rootEntries }));
    const restore: RestoreStep[] = targets.map((t) => ({
      run: `${mkdirFor(t)}python3 -c ${sq(FOLLOW_PY)} ${pathArg(root)} ${sq(t)} ${pathArg(t)}`,
      why: `follow the manifests from ${root} to ${t} and copy it back`,
    }));
    return {
      env: b.build(),
      access:
        `${codeList(targets)} moved to opaque locations recorded in a manifest of manifests. Start at \`${root}\`: ` +
        "in each manifest, `entries[<path>]` has either `manifest` (the next manifest to read) or `location` " +
        `(the file's current path); all paths are relative to the environment root. There are ${params.levels} levels.`,
      restore,
      produced,
      removed: [...targets],
    };
  },
};
